import { z } from "zod";
import { AppError } from "../../errors";
import {
  beginTwoStep,
  disableTwoStep,
  enableTwoStep,
  regenerateRecoveryCodes,
  twoStepStatus,
  type DisableOutcome,
  type EnableOutcome,
  type RegenerateOutcome,
} from "../../auth/two-step";
import { memberProcedure, router } from "../init";
import { twoStepBeginOutput, twoStepDisableOutput, twoStepEnableOutput, twoStepRecoveryCodesOutput, twoStepStatusOutput } from "../outputs/two-step";

// Settings' two-step authentication: a person's own account, so every member (a viewer too) turns it on and off for
// themselves (memberProcedure). The proofs each change asks for are server/auth/two-step.ts's.
const code = z.string().trim().min(1).max(64);
const password = z.string().min(1).max(1024);

/** A refused proof as the console's error: what was wrong, or how long the account is locked for. */
function refusal(r: Exclude<EnableOutcome | DisableOutcome | RegenerateOutcome, { type: "on" } | { type: "off" } | { type: "replaced" }>): AppError {
  switch (r.type) {
    case "locked":
      return new AppError("too_many_attempts", { detail: `too many wrong codes or passwords for this account; try again in ${r.retryAfter} seconds` });
    case "wrong_password":
      return new AppError("invalid_request", { reason: "invalid_parameter", detail: "that is not this account's password", extra: { parameter: "password" } });
    case "wrong_code":
      return new AppError("invalid_request", {
        reason: "invalid_parameter",
        detail: "that code is not a current one (or it was used already)",
        extra: { parameter: "code" },
      });
    case "not_begun":
      return new AppError("invalid_request", { detail: "set up two-step authentication again: no secret is waiting to be confirmed" });
    case "not_on":
      return new AppError("invalid_request", { detail: "two-step authentication is not on" });
    case "not_found":
      return new AppError("not_found", { detail: "no such account" });
  }
}

export const twoStepRouter = router({
  status: memberProcedure.output(twoStepStatusOutput).query(async ({ ctx }) => {
    const s = await twoStepStatus(ctx.seller.userId);
    return { ...s, enabledAt: s.enabledAt?.toISOString() ?? null };
  }),
  begin: memberProcedure.output(twoStepBeginOutput).mutation(async ({ ctx }) => {
    const r = await beginTwoStep(ctx.seller.userId);
    if (r.type === "already_on") throw new AppError("invalid_request", { detail: "two-step authentication is already on; turn it off first" });
    if (r.type === "not_found") throw new AppError("not_found", { detail: "no such account" });
    return { secret: r.secret, uri: r.uri };
  }),
  enable: memberProcedure
    .input(z.object({ code, password }))
    .output(twoStepEnableOutput)
    .mutation(async ({ ctx, input }) => {
      const r = await enableTwoStep({ userId: ctx.seller.userId, ...input, origin: await ctx.origin?.() });
      if (r.type !== "on") throw refusal(r);
      // Every session of the account ended with the change: this one goes on with the new version, the others do not.
      await ctx.renewSession?.(ctx.seller.userId, r.sessionVersion);
      return { recoveryCodes: r.recoveryCodes };
    }),
  disable: memberProcedure
    .input(z.object({ code }))
    .output(twoStepDisableOutput)
    .mutation(async ({ ctx, input }) => {
      const r = await disableTwoStep({ userId: ctx.seller.userId, code: input.code, origin: await ctx.origin?.() });
      if (r.type !== "off") throw refusal(r);
      return { enabled: false as const };
    }),
  regenerateRecoveryCodes: memberProcedure
    .input(z.object({ code, password }))
    .output(twoStepRecoveryCodesOutput)
    .mutation(async ({ ctx, input }) => {
      const r = await regenerateRecoveryCodes({ userId: ctx.seller.userId, ...input });
      if (r.type !== "replaced") throw refusal(r);
      return { recoveryCodes: r.recoveryCodes };
    }),
});
