// A person's freeze of a credential they claimed: reversible, effective at once on every instance (the row's trigger
// announces it; this instance forgets without waiting). A frozen credential's paid calls are refused before anything is
// charged (admit-paid-call.ts); it can still read its entitlements, and its person can unfreeze it.
import { AppError } from "../errors";
import { deleteFreeze, insertFreeze } from "./controls.queries";
import { forgetControls } from "./credential-controls";

export type Person = { humanId: string; sellerId: string };

function notYours(): AppError {
  return new AppError("not_found", { detail: "no live agent credential of yours has that id at this storefront" });
}

export async function freezeCredential(person: Person, credentialId: string): Promise<void> {
  if (!(await insertFreeze(person.humanId, person.sellerId, credentialId))) throw notYours();
  forgetControls(`c:${credentialId}`);
}

export async function unfreezeCredential(person: Person, credentialId: string): Promise<void> {
  if (!(await deleteFreeze(person.humanId, person.sellerId, credentialId))) throw notYours();
  forgetControls(`c:${credentialId}`);
}
