/**
 * A player who wants mail, made the way a person does it: registered with an address of
 * their own, the verification code read from the mail `box` received, verified, and mail
 * turned on. For the tests of mail and play by mail.
 */
import { randomUUID } from 'node:crypto';
import { until, type MailBox } from './receivers.ts';
import type { TestServer } from './server.ts';

export interface MailPlayer {
  id: string;
  name: string;
  email: string;
  token: string;
}

export async function mailPlayer(server: Pick<TestServer, 'gql'>, box: MailBox, name: string, timeoutMs = 20_000): Promise<MailPlayer> {
  const email = `${name.toLowerCase()}-${randomUUID().slice(0, 8)}@example.org`;
  const r = await server.gql(`mutation($n: String!, $e: String!) { registerPlayer(input: { name: $n, email: $e }) { player { id } token } }`, { n: name, e: email });
  const token = r.data.registerPlayer.token as string;
  const mail = await until(() => box.to(email)[0], timeoutMs, 'the verification mail');
  const code = /^Code: (\d{6})$/m.exec(mail.text ?? '')![1]!;
  await server.gql(`mutation($c: String!) { verifyEmail(code: $c) { emailVerified } }`, { c: code }, token);
  await server.gql(`mutation { updatePlayer(input: { notifyByEmail: true }) { notifyByEmail } }`, {}, token);
  return { id: r.data.registerPlayer.player.id as string, name, email, token };
}
