-- A schema with every kind of trigger (TestPgDumpTriggers): BEFORE ROW with
-- UPDATE OF, TRUNCATE, a transition table, a deferred constraint trigger, an
-- INSTEAD OF trigger on a view, a disabled trigger with WHEN.
CREATE TABLE accounts (id int PRIMARY KEY, owner text NOT NULL, cents bigint NOT NULL, updated_at timestamptz);
CREATE TABLE log (seq serial PRIMARY KEY, what text);
CREATE VIEW balances AS SELECT id, owner, cents / 100.0 AS amount FROM accounts;
CREATE FUNCTION touch() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN NEW.updated_at := now(); RETURN NEW; END $$;
CREATE FUNCTION note() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO log (what) VALUES (TG_NAME || ' ' || TG_OP); RETURN NULL; END $$;
CREATE FUNCTION counted() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO log (what) SELECT TG_NAME || ' ' || count(*) FROM newrows; RETURN NULL; END $$;
CREATE FUNCTION bal_ins() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO accounts (id, owner, cents) VALUES (NEW.id, NEW.owner, (NEW.amount * 100)::bigint); RETURN NEW; END $$;
CREATE TRIGGER accounts_touch BEFORE INSERT OR UPDATE OF owner, cents ON accounts FOR EACH ROW EXECUTE FUNCTION touch();
CREATE TRIGGER accounts_truncate AFTER TRUNCATE ON accounts FOR EACH STATEMENT EXECUTE FUNCTION note();
CREATE TRIGGER accounts_counted AFTER INSERT ON accounts REFERENCING NEW TABLE AS newrows FOR EACH STATEMENT EXECUTE FUNCTION counted();
CREATE CONSTRAINT TRIGGER accounts_check AFTER UPDATE ON accounts DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION note();
CREATE TRIGGER balances_ins INSTEAD OF INSERT ON balances FOR EACH ROW EXECUTE FUNCTION bal_ins();
CREATE TRIGGER accounts_when AFTER DELETE ON accounts FOR EACH ROW WHEN (OLD.cents > 0) EXECUTE FUNCTION note();
ALTER TABLE accounts DISABLE TRIGGER accounts_when;
COMMENT ON TRIGGER accounts_touch ON accounts IS 'dump: a trigger';
