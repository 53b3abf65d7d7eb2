-- Issue 33: a seller-wide bound on value delivered before inclusion, beside the per-wallet one (wallets cost nothing).
-- Function bodies are E'' strings with \x3B for semicolons (Prisma splits migration scripts on every semicolon).

-- AlterTable
ALTER TABLE "seller_settings" ADD COLUMN "seller_unsettled_cap_micros" BIGINT;

-- CreateTable
CREATE TABLE "seller_exposures" (
    "seller_id" TEXT NOT NULL,
    "outstanding_micros" BIGINT NOT NULL DEFAULT 0,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "seller_exposures_pkey" PRIMARY KEY ("seller_id")
);

-- AddForeignKey
ALTER TABLE "seller_exposures" ADD CONSTRAINT "seller_exposures_seller_id_fkey" FOREIGN KEY ("seller_id") REFERENCES "sellers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- What is outstanding now.
INSERT INTO "seller_exposures" ("seller_id", "outstanding_micros")
SELECT "seller_id", sum("outstanding_micros") FROM "payer_exposures" GROUP BY "seller_id";

-- Every change of a payer's outstanding value, whoever makes it (a reservation, a settlement's end), is added to the
-- seller's total in the same transaction.
CREATE FUNCTION payer_exposure_to_seller() RETURNS trigger LANGUAGE plpgsql AS E'
DECLARE
  delta BIGINT\x3B
  sid TEXT\x3B
BEGIN
  IF TG_OP = ''INSERT'' THEN
    delta := NEW.outstanding_micros\x3B sid := NEW.seller_id\x3B
  ELSIF TG_OP = ''UPDATE'' THEN
    delta := NEW.outstanding_micros - OLD.outstanding_micros\x3B sid := NEW.seller_id\x3B
  ELSE
    delta := -OLD.outstanding_micros\x3B sid := OLD.seller_id\x3B
  END IF\x3B
  IF delta <> 0 THEN
    INSERT INTO seller_exposures AS s (seller_id, outstanding_micros, updated_at) VALUES (sid, delta, now() AT TIME ZONE ''UTC'')
    ON CONFLICT (seller_id) DO UPDATE SET outstanding_micros = s.outstanding_micros + excluded.outstanding_micros, updated_at = excluded.updated_at\x3B
  END IF\x3B
  RETURN NULL\x3B
END ';

CREATE TRIGGER payer_exposures_to_seller AFTER INSERT OR UPDATE OF outstanding_micros OR DELETE ON payer_exposures
FOR EACH ROW EXECUTE FUNCTION payer_exposure_to_seller();

-- Add `amount` to what `payer` has been delivered before inclusion at `seller`, if it stays within the payer's cap (and
-- the wallet never left an unpaid delivery) and the seller's total stays within the seller's cap. Locks the payer's row,
-- then the seller's (the order every change takes: a settlement's end updates the payer's row, whose trigger updates
-- the seller's), so the check and the add are exact under any concurrency. True when added.
CREATE FUNCTION reserve_delivery_exposure(p_seller TEXT, p_payer TEXT, p_amount BIGINT, p_payer_cap BIGINT, p_seller_cap BIGINT)
RETURNS BOOLEAN LANGUAGE plpgsql AS E'
DECLARE
  payer_row payer_exposures%ROWTYPE\x3B
  total BIGINT\x3B
BEGIN
  IF p_amount > p_payer_cap OR p_amount > p_seller_cap THEN
    RETURN FALSE\x3B
  END IF\x3B
  INSERT INTO payer_exposures (seller_id, payer, outstanding_micros, updated_at) VALUES (p_seller, p_payer, 0, now() AT TIME ZONE ''UTC'')
  ON CONFLICT (seller_id, payer) DO NOTHING\x3B
  SELECT * INTO payer_row FROM payer_exposures WHERE seller_id = p_seller AND payer = p_payer FOR UPDATE\x3B
  IF payer_row.unpaid_at IS NOT NULL OR payer_row.outstanding_micros + p_amount > p_payer_cap THEN
    RETURN FALSE\x3B
  END IF\x3B
  INSERT INTO seller_exposures (seller_id, outstanding_micros, updated_at) VALUES (p_seller, 0, now() AT TIME ZONE ''UTC'')
  ON CONFLICT (seller_id) DO NOTHING\x3B
  SELECT outstanding_micros INTO total FROM seller_exposures WHERE seller_id = p_seller FOR UPDATE\x3B
  IF total + p_amount > p_seller_cap THEN
    RETURN FALSE\x3B
  END IF\x3B
  UPDATE payer_exposures SET outstanding_micros = outstanding_micros + p_amount, updated_at = now() AT TIME ZONE ''UTC''
  WHERE seller_id = p_seller AND payer = p_payer\x3B
  RETURN TRUE\x3B
END ';
