// Output schemas of the two-step router: the secret leaves only in `begin`'s answer, the recovery codes only in
// `enable`'s and `regenerateRecoveryCodes`'s.
import { z } from "zod";
import { iso } from "./common";

export const twoStepStatusOutput = z.object({ enabled: z.boolean(), enabledAt: iso.nullable(), recoveryCodesLeft: z.number().int() });
export const twoStepBeginOutput = z.object({ secret: z.string(), uri: z.string() });
export const twoStepEnableOutput = z.object({ recoveryCodes: z.array(z.string()) });
export const twoStepRecoveryCodesOutput = z.object({ recoveryCodes: z.array(z.string()) });
export const twoStepDisableOutput = z.object({ enabled: z.literal(false) });
