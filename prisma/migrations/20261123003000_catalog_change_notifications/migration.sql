-- Every instance caches which seller a host names (server/catalog/resolve-seller.ts). These triggers announce every
-- change that can alter it, on channel catalog_changed with the seller id, delivered at commit to every instance
-- that LISTENs: a seller row changed (catalog version bump, secrets, payout address, name) or removed, a host added,
-- moved or removed. Written in the database, so no code path (or hand-written SQL) can change a seller unannounced.
-- Function bodies are E'' strings with \x3B for semicolons (Prisma splits migration scripts on every semicolon).

CREATE FUNCTION notify_seller_changed() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  IF TG_OP = ''DELETE'' THEN
    PERFORM pg_notify(''catalog_changed'', OLD.id)\x3B
  ELSE
    PERFORM pg_notify(''catalog_changed'', NEW.id)\x3B
  END IF\x3B
  RETURN NULL\x3B
END\x3B
';

CREATE TRIGGER sellers_notify_changed
  AFTER UPDATE OR DELETE ON "sellers"
  FOR EACH ROW EXECUTE FUNCTION notify_seller_changed();

CREATE FUNCTION notify_seller_host_changed() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  IF TG_OP <> ''INSERT'' THEN
    PERFORM pg_notify(''catalog_changed'', OLD.seller_id)\x3B
  END IF\x3B
  IF TG_OP <> ''DELETE'' THEN
    PERFORM pg_notify(''catalog_changed'', NEW.seller_id)\x3B
  END IF\x3B
  RETURN NULL\x3B
END\x3B
';

CREATE TRIGGER seller_hosts_notify_changed
  AFTER INSERT OR UPDATE OR DELETE ON "seller_hosts"
  FOR EACH ROW EXECUTE FUNCTION notify_seller_host_changed();
