// Whether a budget applies to a credential is cached per instance with its controls (server/controls, a floor above,
// kept true by LISTEN human_controls_changed). The instance that sets a budget must not wait for its own notification:
// it tells the cache here, at once (the controls register when they load; on globalThis, as Next.js may load a module
// twice).
type Listener = (payload: string) => void;

const listeners: Set<Listener> = ((globalThis as unknown as { __budgetChangeListeners?: Set<Listener> }).__budgetChangeListeners ??= new Set());

export function onBudgetChange(listener: Listener): void {
  listeners.add(listener);
}

/** `c:<credential>` (its own budget) or `h:<human>` (the budget for all of a person's credentials), as the trigger says. */
export function announceBudgetChange(payload: string): void {
  for (const listener of listeners) listener(payload);
}
