// Every audited console change, in one list: the action names the audit log shows and filters on, each with the kind
// of thing it changes. A change that is not listed here cannot be written (recordAudit takes only these), so the
// console's filter menu and the writers never drift apart.
export const AUDIT_ACTIONS = {
  "price.update": { target: "price", label: "Price changed" },
  "plan.create": { target: "plan", label: "Plan created" },
  "plan.update": { target: "plan", label: "Plan changed" },
  "plan.retire": { target: "plan", label: "Plan retired" },
  "meter.update": { target: "meter", label: "Meter changed" },
  "payment.refund": { target: "payment", label: "Refund recorded" },
  "identity_provider.add": { target: "trusted_identity_provider", label: "Identity provider added" },
  "identity_provider.update": { target: "trusted_identity_provider", label: "Identity provider changed" },
  "identity_provider.remove": { target: "trusted_identity_provider", label: "Identity provider removed" },
  "settings.update": { target: "seller_settings", label: "Settings changed" },
  "settings.payout_address": { target: "seller_settings", label: "Payout wallet changed" },
  "webhook_endpoint.create": { target: "webhook_endpoint", label: "Webhook endpoint added" },
  "webhook_endpoint.update": { target: "webhook_endpoint", label: "Webhook endpoint changed" },
  "webhook_endpoint.rotate_secret": { target: "webhook_endpoint", label: "Webhook secret rotated" },
  "webhook_endpoint.delete": { target: "webhook_endpoint", label: "Webhook endpoint removed" },
  "webhook_delivery.resend": { target: "webhook_delivery", label: "Webhook delivery resent" },
  "plan.credit_threshold": { target: "plan", label: "Credit alert threshold changed" },
  "account.password_reset": { target: "seller_user", label: "Password reset by email" },
  "account.two_step_enable": { target: "seller_user", label: "Two-step authentication turned on" },
  "account.two_step_disable": { target: "seller_user", label: "Two-step authentication turned off" },
  "account.two_step_recovery_codes": { target: "seller_user", label: "Recovery codes replaced" },
  "team.invite": { target: "seller_invite", label: "Team member invited" },
  "team.join": { target: "seller_user", label: "Team member joined" },
  "team.role": { target: "seller_user", label: "Team member's role changed" },
} as const;

export type AuditAction = keyof typeof AUDIT_ACTIONS;

/** What the log's "Of" filter calls each kind of thing a change is made to. */
export const AUDIT_TARGETS: Record<(typeof AUDIT_ACTIONS)[AuditAction]["target"], string> = {
  price: "Prices",
  plan: "Plans",
  meter: "Meters",
  payment: "Payments",
  trusted_identity_provider: "Identity providers",
  seller_settings: "Settings",
  webhook_endpoint: "Webhook endpoints",
  webhook_delivery: "Webhook deliveries",
  seller_user: "Team members",
  seller_invite: "Invitations",
};

export function isAuditAction(s: string): s is AuditAction {
  return Object.hasOwn(AUDIT_ACTIONS, s);
}
