-- The floor's facts in PostgreSQL (issue 20): what each table's journal says it played.
--
-- A fact is one journal entry of a table read into the report's terms
-- (controller/report/facts.py: a closed round's money, a meter movement or
-- reading, a significant event), kept as the table sent it. (table, seq) is
-- its key, so a fact sent twice (a retry after a lost answer, an outbox
-- restored from an older copy) is stored once; the same key with a different
-- body is refused, because a journal never changes what it wrote.
--
-- Who may do what: each table logs in with its own role, a member of
-- floor_table, and reaches the facts only through floor.put, which finds the
-- table by session_user: a table can add its own facts and nothing else.
-- floor_reader (the report) may read. Nothing is granted to PUBLIC.
-- Re-running this script is safe.

DO $roles$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'floor_owner') THEN
    CREATE ROLE floor_owner NOLOGIN;
  END IF;
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'floor_table') THEN
    CREATE ROLE floor_table NOLOGIN;
  END IF;
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'floor_reader') THEN
    CREATE ROLE floor_reader NOLOGIN;
  END IF;
END
$roles$;

CREATE SCHEMA IF NOT EXISTS floor AUTHORIZATION floor_owner;
REVOKE ALL ON SCHEMA floor FROM PUBLIC;
GRANT USAGE ON SCHEMA floor TO floor_table, floor_reader;

SET ROLE floor_owner;
ALTER DEFAULT PRIVILEGES FOR ROLE floor_owner IN SCHEMA floor REVOKE EXECUTE ON FUNCTIONS FROM PUBLIC;

CREATE TABLE IF NOT EXISTS floor.tables (
  table_id   text PRIMARY KEY CHECK (table_id ~ '^[A-Za-z0-9][A-Za-z0-9_.-]{0,31}$'),
  role_name  name NOT NULL UNIQUE,
  game       text,
  added_at   timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE IF NOT EXISTS floor.facts (
  table_id     text NOT NULL REFERENCES floor.tables (table_id),
  seq          bigint NOT NULL CHECK (seq > 0),          -- the entry of the table's journal
  fact         text NOT NULL,                            -- round, meter, reading, event, link (below), dealer
  at           text NOT NULL,                            -- ISO UTC, as the journal wrote it
  body         jsonb NOT NULL,
  received_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (table_id, seq)
);
CREATE INDEX IF NOT EXISTS facts_at ON floor.facts (table_id, at);
-- a linked table's facts of its pool (issue 20b): a floor installed before takes them once
-- `tablectl floor init` has run again (until then they wait in the tables' outboxes)
ALTER TABLE floor.facts DROP CONSTRAINT IF EXISTS facts_fact_check;
ALTER TABLE floor.facts ADD CONSTRAINT facts_fact_check
  CHECK (fact IN ('round', 'meter', 'reading', 'event', 'link', 'dealer', 'pit', 'hand-pay'));   -- dealer: a sign-in (report/dealers.py); pit: the books (controller/pit); hand-pay: a W-2G's form, the player's id masked (issue 29)

-- Test mode is never play (9 NYCRR 5319.58; issue 28): a floor is live or test, set when it is made
-- (`tablectl floor init [--test]`), and takes only the facts of tables of its own mode.
CREATE TABLE IF NOT EXISTS floor.settings (
  only_row  boolean PRIMARY KEY DEFAULT true CHECK (only_row),
  mode      text NOT NULL CHECK (mode IN ('live', 'test'))
);

-- The table the session's role speaks for, refused unless it is a table of the floor and of the floor's
-- mode (`what` it sends, for the refusal's words). Called by floor.put and floor.put_status alone.
CREATE OR REPLACE FUNCTION floor.caller(table_mode text, what text) RETURNS text
LANGUAGE plpgsql STABLE SET search_path = floor, pg_temp AS $$
DECLARE
  t text;
  floor_mode text;
BEGIN
  SELECT table_id INTO t FROM floor.tables WHERE role_name = session_user;
  IF t IS NULL THEN
    RAISE EXCEPTION 'role % is not a table of the floor', session_user USING ERRCODE = 'FL001';
  END IF;
  SELECT mode INTO floor_mode FROM floor.settings;
  IF COALESCE(floor_mode, 'live') IS DISTINCT FROM COALESCE(table_mode, 'live') THEN
    RAISE EXCEPTION 'table %: a % table''s % refused by a % floor', t, COALESCE(table_mode, 'live'), what,
      COALESCE(floor_mode, 'live') USING ERRCODE = 'FL004';
  END IF;
  RETURN t;
END $$;
REVOKE ALL ON FUNCTION floor.caller(text, text) FROM PUBLIC;

-- A table's facts (a JSON array), stored once each; answers how many were new. `table_mode`: the mode
-- its journal's first entry gives (controller/testmode.py); a table that says none is live.
CREATE OR REPLACE FUNCTION floor.put(table_game text, batch jsonb, table_mode text) RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = floor, pg_temp AS $$
DECLARE
  t text := floor.caller(table_mode, 'facts are');
  added integer;
BEGIN
  IF jsonb_typeof(batch) <> 'array' THEN
    RAISE EXCEPTION 'a batch of facts is a JSON array' USING ERRCODE = 'FL002';
  END IF;
  UPDATE floor.tables SET game = table_game WHERE table_id = t AND game IS DISTINCT FROM table_game
    AND table_game IS NOT NULL;
  INSERT INTO floor.facts (table_id, seq, fact, at, body)
  SELECT t, (f->>'seq')::bigint, f->>'fact', f->>'at', f FROM jsonb_array_elements(batch) AS f
  ON CONFLICT (table_id, seq) DO NOTHING;
  GET DIAGNOSTICS added = ROW_COUNT;
  IF EXISTS (SELECT 1 FROM jsonb_array_elements(batch) AS f
             JOIN floor.facts x ON x.table_id = t AND x.seq = (f->>'seq')::bigint WHERE x.body <> f) THEN
    RAISE EXCEPTION 'table %: a fact already stored differs from the one sent again', t USING ERRCODE = 'FL003';
  END IF;
  RETURN added;
END $$;

-- the sender before issue 28 said no mode: a live table's
CREATE OR REPLACE FUNCTION floor.put(table_game text, batch jsonb) RETURNS integer
LANGUAGE sql SECURITY DEFINER SET search_path = floor, pg_temp AS $$ SELECT floor.put(table_game, batch, 'live') $$;

REVOKE ALL ON FUNCTION floor.put(text, jsonb) FROM PUBLIC;
REVOKE ALL ON FUNCTION floor.put(text, jsonb, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION floor.put(text, jsonb) TO floor_table;
GRANT EXECUTE ON FUNCTION floor.put(text, jsonb, text) TO floor_table;
-- What each table is doing now (issue 34: the floor view): its round's state, the dealer on duty, the
-- meter, the wins waiting for a supervisor, its fault and alarms, as its last attempt said them. Not a
-- fact of the books (those are the journal's, above): one row a table, replaced at each attempt.
CREATE TABLE IF NOT EXISTS floor.status (
  table_id     text PRIMARY KEY REFERENCES floor.tables (table_id),
  body         jsonb NOT NULL CHECK (jsonb_typeof(body) = 'object' AND octet_length(body::text) <= 16384),
  received_at  timestamptz NOT NULL DEFAULT now()
);

CREATE OR REPLACE FUNCTION floor.put_status(body jsonb, table_mode text) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = floor, pg_temp AS $$
DECLARE
  t text := floor.caller(table_mode, 'status is');
BEGIN
  INSERT INTO floor.status (table_id, body) VALUES (t, body)
  ON CONFLICT (table_id) DO UPDATE SET body = excluded.body, received_at = now();
END $$;
REVOKE ALL ON FUNCTION floor.put_status(jsonb, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION floor.put_status(jsonb, text) TO floor_table;

GRANT SELECT ON floor.tables, floor.facts, floor.settings, floor.status TO floor_reader;
RESET ROLE;
