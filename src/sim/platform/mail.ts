/**
 * Outgoing mail (Document 1 §6.3: 2FA codes, password reset, welcome, new administrator).
 * Nothing is sent: mails land in the `mails` table, readable at `GET /_sim/outbox`.
 */
import type { PlatformStore } from './store/store.js';
import type { MailRow } from './store/types.js';

export interface MailInput {
  to: string;
  /** Template name, e.g. `mails.2fa`, `mails.welcome`, `mails.reset_password`. */
  template: string;
  subject: string;
  body: string;
  data?: Record<string, unknown>;
}

export function sendMail(store: PlatformStore, mail: MailInput): MailRow {
  return store.mails.insert({
    id: store.nextId('mails'),
    to: mail.to,
    template: mail.template,
    subject: mail.subject,
    body: mail.body,
    data: mail.data ?? {},
    sentOn: store.clock.isoNow(),
  });
}
