-- Issue 36: a person links a wallet at a storefront by signing a Sign-In with Ethereum message (EIP-4361) and caps it:
-- per call and per UTC day. x402 and MPP payments from that wallet at the storefront honour the caps whatever credential
-- sends them (server/wallet-caps). A day's spending is one counter row per wallet, moved only by a conditional UPDATE
-- (never read-then-write), so concurrent calls on any number of instances never pass the cap. Cap changes are announced
-- on channel human_controls_changed as `w:<seller id>`.
-- Function bodies are E'' strings with \x3B for semicolons (Prisma splits migration scripts on every semicolon).

-- CreateTable
CREATE TABLE "wallet_caps" (
    "seller_id" TEXT NOT NULL,
    "wallet" TEXT NOT NULL,
    "human_id" TEXT NOT NULL,
    "per_call_micros" BIGINT,
    "per_day_micros" BIGINT,
    "linked_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "wallet_caps_pkey" PRIMARY KEY ("seller_id", "wallet"),
    CONSTRAINT "wallet_caps_not_negative" CHECK (coalesce("per_call_micros", 0) >= 0 AND coalesce("per_day_micros", 0) >= 0),
    CONSTRAINT "wallet_caps_lower_case" CHECK ("wallet" = lower("wallet"))
);

-- CreateTable
CREATE TABLE "wallet_cap_days" (
    "seller_id" TEXT NOT NULL,
    "wallet" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "spent_micros" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "wallet_cap_days_pkey" PRIMARY KEY ("seller_id", "wallet", "day"),
    CONSTRAINT "wallet_cap_days_not_negative" CHECK ("spent_micros" >= 0)
);

-- CreateTable
CREATE TABLE "wallet_link_nonces" (
    "nonce" TEXT NOT NULL,
    "seller_id" TEXT NOT NULL,
    "human_id" TEXT NOT NULL,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "used_at" TIMESTAMP(3),

    CONSTRAINT "wallet_link_nonces_pkey" PRIMARY KEY ("nonce")
);

-- CreateIndex
-- Serves: the person's wallets at a storefront.
CREATE INDEX "wallet_caps_human_id_seller_id_idx" ON "wallet_caps"("human_id", "seller_id");

-- AddForeignKey
ALTER TABLE "wallet_caps" ADD CONSTRAINT "wallet_caps_human_id_fkey" FOREIGN KEY ("human_id") REFERENCES "humans"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE FUNCTION notify_wallet_caps() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  IF TG_OP = ''DELETE'' THEN
    PERFORM pg_notify(''human_controls_changed'', ''w:'' || OLD.seller_id)\x3B
  ELSE
    PERFORM pg_notify(''human_controls_changed'', ''w:'' || NEW.seller_id)\x3B
  END IF\x3B
  RETURN NULL\x3B
END\x3B
';

CREATE TRIGGER wallet_caps_notify AFTER INSERT OR UPDATE OR DELETE ON "wallet_caps"
  FOR EACH ROW EXECUTE FUNCTION notify_wallet_caps();
