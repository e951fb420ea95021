# Multi-stage build: the web client is built with the dev dependencies (Vite) in one stage,
# the runtime installed and the Prisma client generated in another, and the service runs as
# the unprivileged node user in the last. Needs an external PostgreSQL (DATABASE_URL).
FROM node:20-bookworm-slim AS web
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY web ./web
COPY scripts ./scripts
RUN npm run build:web

FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json prisma.config.ts ./
COPY prisma ./prisma
# --omit=dev: tsx, prisma and the client are runtime dependencies; the embedded
# PostgreSQL package comes along but is not used when DATABASE_URL is set.
COPY scripts ./scripts
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY tsconfig.json ./
COPY src ./src
RUN npm run generate
COPY --from=web /app/dist/web ./dist/web

FROM node:20-bookworm-slim
ENV NODE_ENV=production HOST=0.0.0.0 PORT=4000
WORKDIR /app
COPY --from=build --chown=node:node /app /app
USER node
EXPOSE 4000
HEALTHCHECK --interval=30s --timeout=3s CMD node -e "fetch('http://127.0.0.1:4000/readyz').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
CMD ["node", "--import", "tsx", "src/main.ts"]
