import type { MailMessage } from './mailer.js';

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function layout(siteName: string, paragraphs: string[], action: { label: string; url: string }): string {
  const body = paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n');
  return `<!doctype html><html><body style="font-family:sans-serif;line-height:1.5;color:#111">
<h2>${escapeHtml(siteName)}</h2>
${body}
<p><a href="${escapeHtml(action.url)}" style="display:inline-block;padding:10px 18px;background:#1a73e8;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(action.label)}</a></p>
<p style="color:#555;font-size:13px">${escapeHtml(action.url)}</p>
</body></html>`;
}

export function verifyEmailMessage(to: string, siteName: string, url: string): MailMessage {
  const lines = ['Please confirm your email address by clicking the button below.', 'The link is valid for 24 hours.'];
  return {
    to,
    subject: `Verify your email address on ${siteName}`,
    text: `${lines.join('\n')}\n\n${url}\n`,
    html: layout(siteName, lines, { label: 'Verify email address', url }),
  };
}

export function resetPasswordMessage(to: string, siteName: string, url: string, minutes: number): MailMessage {
  const lines = [
    'You are receiving this email because we received a password reset request for your account.',
    `This password reset link will expire in ${minutes} minutes.`,
    'If you did not request a password reset, no further action is required.',
  ];
  return {
    to,
    subject: `Reset your password on ${siteName}`,
    text: `${lines.join('\n')}\n\n${url}\n`,
    html: layout(siteName, lines, { label: 'Reset password', url }),
  };
}

export function emailChangedMessage(to: string, siteName: string, newEmail: string, recoverUrl: string): MailMessage {
  const lines = [
    `The sign-in email of your ${siteName} account was changed to ${newEmail}.`,
    'Every other session of the account was signed out.',
    'If you did not make this change, reset your password now and contact the site administrator.',
  ];
  return {
    to,
    subject: `Your ${siteName} sign-in email was changed`,
    text: `${lines.join('\n')}\n\n${recoverUrl}\n`,
    html: layout(siteName, lines, { label: 'Reset password', url: recoverUrl }),
  };
}

export function workspaceInviteMessage(
  to: string,
  siteName: string,
  invite: { inviterName: string; workspaceName: string; url: string; days: number },
): MailMessage {
  const lines = [
    `${invite.inviterName} invited you to join the ${invite.workspaceName} workspace on ${siteName}.`,
    `The invitation expires in ${invite.days} days.`,
    'If you did not expect this invitation, you can ignore this email.',
  ];
  return {
    to,
    subject: `Join ${invite.workspaceName} on ${siteName}`,
    text: `${lines.join('\n')}\n\n${invite.url}\n`,
    html: layout(siteName, lines, { label: 'Join workspace', url: invite.url }),
  };
}

export function notificationMessage(to: string, siteName: string, notification: { lines: string[]; action: { label: string; url: string } }): MailMessage {
  const subject = notification.lines[0] ?? siteName;
  return {
    to,
    subject,
    text: `${notification.lines.join('\n')}\n\n${notification.action.label}: ${notification.action.url}\n`,
    html: layout(siteName, notification.lines, notification.action),
  };
}
