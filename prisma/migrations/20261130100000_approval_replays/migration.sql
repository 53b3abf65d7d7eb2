-- Issue 36: an approved call's replays. `approvals.proof_hash`: the SHA-256 of the payment proof that spent an approval
-- (server/approvals). A later request carrying that very proof is a replay of the paid call: it goes to its rail, which
-- serves the answer it paid for (never held again, never charged again), and any other proof for the same request is a
-- new call, held anew.

ALTER TABLE "approvals" ADD COLUMN "proof_hash" TEXT;
