-- CreateTable
CREATE TABLE "market_archive_days" (
    "id" TEXT NOT NULL,
    "feed" TEXT NOT NULL,
    "entity" TEXT NOT NULL,
    "observed_date" DATE NOT NULL,
    "observed_at" TIMESTAMPTZ(3) NOT NULL,
    "captured_at" TIMESTAMPTZ(3) NOT NULL,
    "ingested_at" TIMESTAMPTZ(3) NOT NULL,
    "content_hash" TEXT NOT NULL,
    "summary" JSONB NOT NULL,
    "payload" JSON NOT NULL,

    CONSTRAINT "market_archive_days_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "market_artifacts" (
    "id" TEXT NOT NULL,
    "content_type" TEXT NOT NULL,
    "bytes" BYTEA NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "market_artifacts_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "market_archive_days_feed_entity_observed_date_key" ON "market_archive_days"("feed", "entity", "observed_date");

-- CreateIndex
CREATE INDEX "market_artifacts_expires_at_idx" ON "market_artifacts"("expires_at");


-- The archive is history: a captured day is written once and never changed, removed or backfilled.
-- Enforced here so no code path (or hand-written SQL) can rewrite it.
-- Function bodies are E'' strings with \x3B for semicolons: Prisma's pg adapter runs migrations by splitting
-- the script on every semicolon, which would cut a plpgsql body apart.
ALTER TABLE "market_archive_days"
  ADD CONSTRAINT "market_archive_days_observed_date_is_utc_day"
  CHECK ("observed_date" = ("observed_at" AT TIME ZONE 'UTC')::date),
  ADD CONSTRAINT "market_archive_days_content_hash_sha256"
  CHECK ("content_hash" ~ '^[0-9a-f]{64}$');

CREATE FUNCTION market_archive_days_immutable() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  RAISE EXCEPTION ''market_archive_days is append-only: % is refused'', TG_OP
    USING ERRCODE = ''raise_exception'', HINT = ''archive days are captured once and never changed''\x3B
END\x3B
';

CREATE TRIGGER market_archive_days_no_update_delete
  BEFORE UPDATE OR DELETE ON "market_archive_days"
  FOR EACH ROW EXECUTE FUNCTION market_archive_days_immutable();

CREATE TRIGGER market_archive_days_no_truncate
  BEFORE TRUNCATE ON "market_archive_days"
  FOR EACH STATEMENT EXECUTE FUNCTION market_archive_days_immutable();

-- No backfill: a day older than the latest captured day of the same feed and entity is refused.
CREATE FUNCTION market_archive_days_no_backfill() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  IF EXISTS (
    SELECT 1 FROM "market_archive_days"
    WHERE "feed" = NEW."feed" AND "entity" = NEW."entity" AND "observed_date" > NEW."observed_date"
  ) THEN
    RAISE EXCEPTION ''market_archive_days: % % % is older than the latest captured day (no backfill)'',
      NEW."feed", NEW."entity", NEW."observed_date" USING ERRCODE = ''raise_exception''\x3B
  END IF\x3B
  RETURN NEW\x3B
END\x3B
';

CREATE TRIGGER market_archive_days_no_backfill
  BEFORE INSERT ON "market_archive_days"
  FOR EACH ROW EXECUTE FUNCTION market_archive_days_no_backfill();
