-- Linked progressives and pooled poker jackpots in PostgreSQL (issue 10).
--
-- One row per pool holds its meter; every operation on a pool locks that row
-- first, so the database, not the tables' clocks, orders simultaneous hits, and
-- each operation gets the pool's next sequence number (its commit order,
-- 9 NYCRR 5321.18(b)(3)(iii)). Meters are integer "units" of 1/10000 of a cent:
-- a contribution of stake x contribution_bp is exact, the whole cents are the
-- displayed meter and the rest is the fraction carried (shared/spec/rounds.md).
-- A meter moves only by a row of link.meter_moves, so
--   meter = seeds + contributions - awards (from the meter, not voided)
-- holds at every commit (link.check_pool).
--
-- Who may do what: table roles (members of link_table, one login role per
-- table) reach the data only through the SECURITY DEFINER functions granted to
-- link_table, each of which finds the calling table by session_user, so a table
-- can add only its own contributions and claim and settle only its own awards.
-- The admin functions are granted to link_admin and journal who did what in
-- link.changes. Nothing is granted to PUBLIC.
--
-- Re-running this script is safe: tables are created if missing, functions
-- replaced. It needs a role that may create roles and the link schema
-- (a superuser, or the database owner with CREATEROLE).

DO $roles$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'link_owner') THEN
    CREATE ROLE link_owner NOLOGIN;
  END IF;
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'link_admin') THEN
    CREATE ROLE link_admin NOLOGIN;
  END IF;
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'link_table') THEN
    CREATE ROLE link_table NOLOGIN;
  END IF;
END
$roles$;
-- The pool's link.cut_off_holders (owned by link_owner) ends a table's session that holds the
-- meter row past link._hold_bound_ms() (issue 16): it must see it and signal it.
GRANT pg_read_all_stats, pg_signal_backend TO link_owner;

CREATE SCHEMA IF NOT EXISTS link AUTHORIZATION link_owner;
REVOKE ALL ON SCHEMA link FROM PUBLIC;
GRANT USAGE ON SCHEMA link TO link_admin, link_table;

SET ROLE link_owner;
ALTER DEFAULT PRIVILEGES FOR ROLE link_owner IN SCHEMA link REVOKE EXECUTE ON FUNCTIONS FROM PUBLIC;

CREATE TABLE IF NOT EXISTS link.schema_version (version int NOT NULL);
INSERT INTO link.schema_version SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM link.schema_version);

CREATE TABLE IF NOT EXISTS link.pools (
  pool_id     serial PRIMARY KEY,
  name        text NOT NULL UNIQUE CHECK (name ~ '^[a-z0-9][a-z0-9_.-]{0,62}$'),
  kind        text NOT NULL CHECK (kind IN ('progressive', 'jackpot')),
  version     int NOT NULL DEFAULT 1,          -- of the parameters (link.param_versions)
  params      jsonb NOT NULL,
  meter_units bigint NOT NULL CHECK (meter_units >= 0),  -- 1 unit = 1/10000 cent
  next_seq    bigint NOT NULL DEFAULT 1,       -- commit order of the pool's operations
  created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE IF NOT EXISTS link.param_versions (
  pool_id    int NOT NULL REFERENCES link.pools,
  version    int NOT NULL,
  params     jsonb NOT NULL,
  since      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (pool_id, version)
);

CREATE TABLE IF NOT EXISTS link.pool_tables (
  pool_id         int NOT NULL REFERENCES link.pools,
  table_name      text NOT NULL CHECK (table_name ~ '^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$'),
  role_name       name NOT NULL,
  live            boolean NOT NULL DEFAULT false,  -- open for play: parameters frozen
  live_since      timestamptz,
  last_seen       timestamptz,
  reported_count  bigint,      -- the table's own count and digest at its last reconcile
  reported_digest text,
  reported_at     timestamptz,
  agreed          boolean,
  PRIMARY KEY (pool_id, table_name),
  UNIQUE (pool_id, role_name)
);

CREATE TABLE IF NOT EXISTS link.meter_moves (
  move_id           bigserial PRIMARY KEY,
  pool_id           int NOT NULL REFERENCES link.pools,
  op_seq            bigint NOT NULL,
  kind              text NOT NULL CHECK (kind IN ('seed', 'contribution', 'award', 'reseed',
                                                  'void-return', 'jackpot-contribution', 'jackpot-award')),
  units             bigint NOT NULL,
  meter_units_after bigint NOT NULL,
  at                timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX IF NOT EXISTS meter_moves_pool ON link.meter_moves (pool_id, move_id);

CREATE TABLE IF NOT EXISTS link.contributions (
  pool_id           int NOT NULL REFERENCES link.pools,
  seq               bigint NOT NULL,
  table_name        text NOT NULL,
  round_id          text NOT NULL,
  key               uuid NOT NULL UNIQUE,
  seats             int[] NOT NULL,
  stake_cents       bigint NOT NULL,
  rate_bp           int NOT NULL,
  units             bigint NOT NULL,
  meter_units_after bigint NOT NULL,
  version           int NOT NULL,
  committed_at      timestamptz NOT NULL DEFAULT clock_timestamp(),
  PRIMARY KEY (pool_id, seq),
  UNIQUE (pool_id, table_name, round_id)
);

CREATE TABLE IF NOT EXISTS link.claims (
  key          uuid PRIMARY KEY,
  pool_id      int NOT NULL REFERENCES link.pools,
  table_name   text NOT NULL,
  round_id     text NOT NULL,
  hits         jsonb NOT NULL,         -- as claimed, in payment order
  version      int NOT NULL,
  total_cents  bigint NOT NULL,
  committed_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  UNIQUE (pool_id, table_name, round_id)
);

CREATE TABLE IF NOT EXISTS link.awards (
  pool_id            int NOT NULL REFERENCES link.pools,
  seq                bigint NOT NULL,      -- payment order across the pool
  claim_key          uuid NOT NULL REFERENCES link.claims,
  table_name         text NOT NULL,
  round_id           text NOT NULL,
  seat               int NOT NULL,
  hand               text NOT NULL,
  cards              text NOT NULL,
  amount_cents       bigint NOT NULL CHECK (amount_cents >= 0),
  from_meter         boolean NOT NULL,
  meter_before_cents bigint NOT NULL,      -- the meter at its turn (a royal: the meter shared)
  meter_after_cents  bigint NOT NULL,
  shared_by          int NOT NULL DEFAULT 1,
  status             text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'paid', 'voided')),
  settled_key        uuid UNIQUE,
  settled_seq        bigint,
  settled_by         text,
  settled_reason     text,
  settled_at         timestamptz,
  committed_at       timestamptz NOT NULL DEFAULT clock_timestamp(),
  PRIMARY KEY (pool_id, seq),
  UNIQUE (pool_id, table_name, round_id, seat)
);
CREATE INDEX IF NOT EXISTS awards_pending ON link.awards (pool_id) WHERE status = 'pending';
-- the table's journal entry of the supervisor's validation (or refusal), as the table sent it (issue 16)
ALTER TABLE link.awards ADD COLUMN IF NOT EXISTS validation jsonb;
-- an operation voided by a two-supervisor decision (`tablectl link reconcile`, issue 16): out of the
-- table's records, its money taken back
ALTER TABLE link.contributions ADD COLUMN IF NOT EXISTS voided_by jsonb;
ALTER TABLE link.claims ADD COLUMN IF NOT EXISTS voided_by jsonb;
ALTER TABLE link.meter_moves DROP CONSTRAINT IF EXISTS meter_moves_kind_check;
ALTER TABLE link.meter_moves ADD CONSTRAINT meter_moves_kind_check
  CHECK (kind IN ('seed', 'contribution', 'award', 'reseed', 'void-return', 'jackpot-contribution',
                  'jackpot-award', 'void-contribution', 'to-overflow', 'from-overflow', 'retire',
                  'transfer-in'));

-- A pool's limit and its overflow (9 NYCRR 5320.8; issue 29): `params.limit` (cents) is the most the
-- meter shows; what a contribution (or an award voided back) would add past it goes to the pool's
-- overflow meter, which seeds the meter after its next royal flush up to the limit ("next-reset").
-- Each move of the overflow is a meter move whose `overflow_units` says what the overflow gained
-- (to-overflow) or gave (from-overflow), so overflow_units = the sum of the moves' overflow_units.
-- A pool is retired (issue 29 item 7, `tablectl link pool retire`) by two supervisors: its meter and
-- overflow go to another pool or to a recorded liability, and every table operation on it is refused
-- (LK011) from then on, so its tables stop offering the wager until they are assigned a pool.
ALTER TABLE link.pools ADD COLUMN IF NOT EXISTS overflow_units bigint NOT NULL DEFAULT 0
  CHECK (overflow_units >= 0);
ALTER TABLE link.pools ADD COLUMN IF NOT EXISTS retired jsonb;
ALTER TABLE link.meter_moves ADD COLUMN IF NOT EXISTS overflow_units bigint NOT NULL DEFAULT 0;

-- A table closes each round it contributed with the pool when the round ends (issue 26:
-- `link.close_round`, sent through the outbox after the round's claim): a claim is taken
-- only for the table's latest contribution, not closed. Pools made before the columns get
-- them from `tablectl link init`; their rounds are unclosed, and only each table's latest
-- of them can still be claimed.
ALTER TABLE link.contributions ADD COLUMN IF NOT EXISTS closed_key uuid UNIQUE;
ALTER TABLE link.contributions ADD COLUMN IF NOT EXISTS closed_at timestamptz;
CREATE INDEX IF NOT EXISTS contributions_latest ON link.contributions (pool_id, table_name, seq);

-- Every claim the pool refused, kept (issue 26): the refusal is answered, not raised, so
-- this record commits; one key is one refusal (a retry of it is answered the same).
-- Bounded: the round, the reason and what was sent, cut to a few hundred characters.
CREATE TABLE IF NOT EXISTS link.refusals (
  refusal_id bigserial PRIMARY KEY,
  pool_id    int NOT NULL REFERENCES link.pools,
  table_name text NOT NULL,
  kind       text NOT NULL CHECK (kind IN ('claim')),
  round_id   text NOT NULL,
  key        uuid NOT NULL UNIQUE,
  code       text NOT NULL,
  reason     text NOT NULL,
  sent       text NOT NULL,
  db_role    name NOT NULL DEFAULT session_user,
  at         timestamptz NOT NULL DEFAULT clock_timestamp()
);

CREATE TABLE IF NOT EXISTS link.periods (
  pool_id             int NOT NULL REFERENCES link.pools,
  number              int NOT NULL,
  opened_at           timestamptz NOT NULL DEFAULT clock_timestamp(),
  rollover_in_cents   bigint NOT NULL,
  status              text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'paid', 'rolled')),
  closed_at           timestamptz,
  total_cents         bigint,
  closed_by           text,
  closed_role         name,
  PRIMARY KEY (pool_id, number)
);

CREATE TABLE IF NOT EXISTS link.jackpot_contributions (
  pool_id           int NOT NULL REFERENCES link.pools,
  seq               bigint NOT NULL,
  period            int NOT NULL,
  table_name        text NOT NULL,
  hand_id           text NOT NULL,
  key               uuid NOT NULL UNIQUE,
  amount_cents      bigint NOT NULL CHECK (amount_cents > 0),
  meter_units_after bigint NOT NULL,
  committed_at      timestamptz NOT NULL DEFAULT clock_timestamp(),
  PRIMARY KEY (pool_id, seq),
  UNIQUE (pool_id, table_name, hand_id)
);

CREATE TABLE IF NOT EXISTS link.qualifying_hands (
  pool_id      int NOT NULL REFERENCES link.pools,
  seq          bigint NOT NULL,
  period       int NOT NULL,
  table_name   text NOT NULL,
  hand_id      text NOT NULL,
  seat         int NOT NULL,
  key          uuid NOT NULL UNIQUE,
  player       text NOT NULL,     -- the player's reference on the tracking form, 5324.42(r)(4)(i)
  value        bigint NOT NULL,   -- controller.hands.high value: higher is better
  hand         text NOT NULL,
  cards        text NOT NULL,
  announced    boolean NOT NULL,  -- the best of the period when it was recorded (5324.42(r)(4))
  committed_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  PRIMARY KEY (pool_id, seq),
  UNIQUE (pool_id, table_name, hand_id, seat)
);
-- Who verified the hand and the rest of its tracking form line (5324.42(r)(4)(i), (iv), (v)):
-- the floorperson's id and license, the dealer's name and license, the player's phone.
-- Added after the table was first made, so `tablectl link init` adds it to an existing pool.
ALTER TABLE link.qualifying_hands ADD COLUMN IF NOT EXISTS verification jsonb;

CREATE TABLE IF NOT EXISTS link.jackpot_awards (
  pool_id        int NOT NULL REFERENCES link.pools,
  seq            bigint NOT NULL,
  period         int NOT NULL,
  qualifying_seq bigint NOT NULL,
  table_name     text NOT NULL,
  hand_id        text NOT NULL,
  seat           int NOT NULL,
  player         text NOT NULL,
  amount_cents   bigint NOT NULL,
  shared_by      int NOT NULL,
  committed_at   timestamptz NOT NULL DEFAULT clock_timestamp(),
  PRIMARY KEY (pool_id, seq)
);

-- Every change of a pool's set-up or state made by a person, with who made it
-- (5321.18(b)(4)): the name given and the database role that gave it.
CREATE TABLE IF NOT EXISTS link.changes (
  change_id bigserial PRIMARY KEY,
  pool_id   int REFERENCES link.pools,
  at        timestamptz NOT NULL DEFAULT clock_timestamp(),
  db_role   name NOT NULL DEFAULT session_user,
  who       text NOT NULL CHECK (length(btrim(who)) > 0),
  what      text NOT NULL,
  detail    jsonb NOT NULL DEFAULT '{}'
);

-- --------------------------------------------------------------------------
-- Helpers (not granted to anyone; called by the functions below)
-- --------------------------------------------------------------------------

CREATE OR REPLACE FUNCTION link._refuse(p_code text, p_message text) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  -- LK001 not a table of the pool, LK002 conflict with a recorded operation,
  -- LK003 parameters changed, LK005 invalid input, LK006 a table is live,
  -- LK007 claim without contribution, LK008 no such award, LK010 no such pool,
  -- LK009 a claim or settlement the pool's records do not bear out (issue 16)
  RAISE EXCEPTION USING ERRCODE = p_code, MESSAGE = p_message;
END $$;

CREATE OR REPLACE FUNCTION link._lock_pool(p_name text, p_kind text) RETURNS link.pools
LANGUAGE plpgsql AS $$
DECLARE p link.pools;
BEGIN
  SELECT * INTO p FROM link.pools WHERE name = p_name FOR UPDATE;
  IF NOT FOUND THEN
    PERFORM link._refuse('LK010', format('no pool named %L', p_name));
  END IF;
  IF p_kind IS NOT NULL AND p.kind <> p_kind THEN
    PERFORM link._refuse('LK005', format('pool %s is a %s pool, not a %s pool', p.name, p.kind, p_kind));
  END IF;
  RETURN p;
END $$;

-- How long a table's transaction may hold the meter row before it is cut off (issue 16).
-- The pool's own functions hold it for milliseconds; a table's session that holds it
-- longer is stalling every other table.
CREATE OR REPLACE FUNCTION link._hold_bound_ms() RETURNS int LANGUAGE sql IMMUTABLE AS $$ SELECT 300 $$;

-- Until issue 26 the waiting function cut holders off itself: it took sessions only waiting
-- for the row for holders (see link._holders) and its record of the cut-off went with its
-- own transaction when that failed. link.cut_off_holders does it now, in a transaction of its own.
DROP FUNCTION IF EXISTS link._cut_off_holders(link.pools);

-- The table sessions that may be holding a pool's row against the others, as they are at
-- this instant: a table's session (never a person's: link_admin, a superuser) with a row
-- lock on link.pools (its RowShareLock or RowExclusiveLock on the relation) in a
-- transaction that began more than the bound ago, and not itself waiting for a lock.
-- A session waiting for the row holds that relation lock too, and its transaction is as
-- old as its wait; it is told apart by the lock manager as it is now (pg_blocking_pids)
-- and by a fresh read of pg_stat_activity, which is otherwise read once a transaction, so
-- that a function waiting in a loop judged the others by how they were when it began and
-- took a waiter for a holder (issue 26). `idle`: idle in its transaction past the bound.
CREATE OR REPLACE FUNCTION link._holders()
RETURNS TABLE (holder_pid int, holder_role name, holder_since timestamptz, idle boolean)
LANGUAGE plpgsql AS $$
DECLARE bound interval := make_interval(secs => link._hold_bound_ms() / 1000.0);
BEGIN
  PERFORM pg_stat_clear_snapshot();
  RETURN QUERY
  WITH lockers AS MATERIALIZED (
    SELECT DISTINCT l.pid FROM pg_locks l
     WHERE l.locktype = 'relation' AND l.relation = 'link.pools'::regclass AND l.granted
       AND l.mode IN ('RowShareLock', 'RowExclusiveLock') AND l.pid <> pg_backend_pid()
  ), tables AS MATERIALIZED (
    SELECT a.pid, a.usename, a.xact_start, a.state, a.state_change
      FROM lockers k JOIN pg_stat_activity a ON a.pid = k.pid
     WHERE a.usename IS NOT NULL AND a.xact_start < clock_timestamp() - bound
       AND a.wait_event_type IS DISTINCT FROM 'Lock'
       AND pg_has_role(a.usename, 'link_table', 'MEMBER') AND NOT pg_has_role(a.usename, 'link_admin', 'MEMBER')
       AND NOT (SELECT r.rolsuper FROM pg_roles r WHERE r.rolname = a.usename)
  )
  SELECT t.pid, t.usename, t.xact_start,
         t.state LIKE 'idle in transaction%' AND t.state_change < clock_timestamp() - bound
    FROM tables t
   WHERE cardinality(pg_blocking_pids(t.pid)) = 0;
END $$;

-- The sessions link._holders finds in every look, `p_gap` seconds apart, for `p_for` (the
-- same pid in the same transaction each time), as {pid: {role, since, idle}}. A waiter is
-- seen as it is for microseconds between two of its tries (or while it takes the lock
-- manager's own locks), never look after look; one idle in its transaction is taken at once.
CREATE OR REPLACE FUNCTION link._seen_holding(p_for interval, p_gap float8) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE kept jsonb; seen jsonb; started timestamptz := clock_timestamp();
BEGIN
  LOOP
    SELECT coalesce(jsonb_object_agg(h.holder_pid::text, jsonb_build_object(
             'role', h.holder_role, 'since', h.holder_since, 'idle', h.idle)), '{}'::jsonb)
      INTO seen FROM link._holders() h;
    IF kept IS NULL THEN
      kept := seen;
    ELSE
      SELECT coalesce(jsonb_object_agg(f.key, seen -> f.key), '{}'::jsonb) INTO kept FROM jsonb_each(kept) f
       WHERE seen -> f.key -> 'since' = f.value -> 'since';
    END IF;
    EXIT WHEN kept = '{}'::jsonb OR clock_timestamp() - started >= p_for
              OR NOT EXISTS (SELECT 1 FROM jsonb_each(kept) f WHERE NOT (f.value ->> 'idle')::boolean);
    PERFORM pg_sleep(p_gap);
  END LOOP;
  RETURN kept;
END $$;

-- The hint of an operation's "lock not available" when a table's session may be holding the
-- meter row: the table's client asks link.cut_off_holders, then sends the operation again.
CREATE OR REPLACE FUNCTION link._cut_off_hint() RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT 'link.cut_off_holders(pool), then send again'
$$;

-- The meter row for a table's operation, in the weakest mode that still orders the
-- operations (FOR NO KEY UPDATE: open_table's KEY SHARE does not block it). Waited for in
-- short steps, for at most 5 s; a session waiting for it is never cut off, by this or by
-- anything of the pool. When a table's session may be holding it against the others
-- (link._seen_holding) the operation is answered "lock not available" at once, with the
-- hint link._cut_off_hint(): the table's client calls link.cut_off_holders, in a
-- transaction of its own, and sends the operation again (issue 26).
CREATE OR REPLACE FUNCTION link._lock_meter(p_name text, p_kind text) RETURNS link.pools
LANGUAGE plpgsql AS $$
DECLARE p link.pools; held text;
BEGIN
  SELECT * INTO p FROM link.pools WHERE name = p_name;
  IF NOT FOUND THEN
    PERFORM link._refuse('LK010', format('no pool named %L', p_name));
  END IF;
  IF p_kind IS NOT NULL AND p.kind <> p_kind THEN
    PERFORM link._refuse('LK005', format('pool %s is a %s pool, not a %s pool', p.name, p.kind, p_kind));
  END IF;
  PERFORM link._not_retired(p);
  PERFORM set_config('lock_timeout', (link._hold_bound_ms() / 3) || 'ms', true);
  LOOP
    BEGIN
      SELECT * INTO p FROM link.pools WHERE pool_id = p.pool_id FOR NO KEY UPDATE;
      EXIT;
    EXCEPTION WHEN lock_not_available THEN
      SELECT string_agg(format('%s (pid %s)', f.value ->> 'role', f.key), ', ') INTO held
        FROM jsonb_each(link._seen_holding(interval '40 milliseconds', 0.02)) f;
      IF held IS NOT NULL THEN
        -- lock_not_available, as a client of before issue 26 knows it (the row held: try later);
        -- the hint tells today's client to ask for the cut-off first
        RAISE EXCEPTION USING ERRCODE = 'lock_not_available', HINT = link._cut_off_hint(),
          MESSAGE = format('the meter row of pool %s may be held by table session(s) %s', p.name, held);
      END IF;
      IF clock_timestamp() - statement_timestamp() > interval '5 seconds' THEN
        RAISE EXCEPTION USING ERRCODE = 'lock_not_available',
          MESSAGE = format('the meter row of pool %s is held by a session the pool does not cut off', p.name);
      END IF;
    END;
  END LOOP;
  RETURN p;
END $$;

-- A table whose operation was answered with link._cut_off_hint() asks the pool to end what holds the meter
-- row (issue 16, 26): each table session found holding it in a transaction older than the
-- bound, and seen holding it in every look for half the bound more (30 ms apart, the same
-- transaction; one idle in its transaction past the bound at once), is recorded in link.changes ("table session cut off": its role, pid, since when and
-- why, and the table that asked) and terminated, in this transaction of its own, so the
-- record stays whatever becomes of the operation. A session waiting for a lock is never one.
CREATE OR REPLACE FUNCTION link.cut_off_holders(p_pool text) RETURNS jsonb
LANGUAGE plpgsql SECURITY DEFINER SET search_path = link, pg_catalog, pg_temp AS $$
DECLARE
  p link.pools; t text; kept jsonb; k text; v jsonb; change bigint; gone int[] := '{}';
  started timestamptz := clock_timestamp(); bound interval := make_interval(secs => link._hold_bound_ms() / 1000.0);
BEGIN
  SELECT * INTO p FROM link.pools WHERE name = p_pool;
  IF NOT FOUND THEN PERFORM link._refuse('LK010', format('no pool named %L', p_pool)); END IF;
  t := link._caller(p);
  kept := link._seen_holding(bound / 2, 0.03);
  FOR k, v IN SELECT * FROM jsonb_each(kept) LOOP
    IF NOT EXISTS (SELECT 1 FROM link._holders() h WHERE h.holder_pid = k::int
                   AND h.holder_since = (v ->> 'since')::timestamptz) THEN
      CONTINUE;   -- it let go meanwhile (or it is in another transaction now)
    END IF;
    -- the record first: a session is never ended without it
    INSERT INTO link.changes (pool_id, who, what, detail)
      VALUES (p.pool_id, 'the pool', 'table session cut off',
              jsonb_build_object('role', v ->> 'role', 'pid', k::int, 'transaction_since', v -> 'since',
                                 'why', CASE WHEN (v ->> 'idle')::boolean THEN 'idle in its transaction holding the row'
                                             ELSE 'held the row past the bound' END,
                                 'bound_ms', link._hold_bound_ms(), 'asked_by', t))
      RETURNING change_id INTO change;
    IF pg_terminate_backend(k::int) THEN
      gone := gone || k::int;
    ELSE
      DELETE FROM link.changes WHERE change_id = change;
    END IF;
  END LOOP;
  -- until they are gone (bounded), so the operation sent again finds the row free
  WHILE cardinality(gone) > 0 AND clock_timestamp() - started < interval '2 seconds' LOOP
    PERFORM pg_stat_clear_snapshot();
    EXIT WHEN NOT EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.pid = ANY (gone));
    PERFORM pg_sleep(0.01);
  END LOOP;
  RETURN jsonb_build_object('pool', p.name, 'cut_off', to_jsonb(gone));
END $$;

CREATE OR REPLACE FUNCTION link._caller(p link.pools) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE t text;
BEGIN
  SELECT table_name INTO t FROM link.pool_tables WHERE pool_id = p.pool_id AND role_name = session_user;
  IF NOT FOUND THEN
    PERFORM link._refuse('LK001', format('role %s is not a table of pool %s', session_user, p.name));
  END IF;
  RETURN t;
END $$;

CREATE OR REPLACE FUNCTION link._check_id(p_value text, p_what text) RETURNS void
LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
  IF p_value IS NULL OR p_value !~ '^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$' THEN
    PERFORM link._refuse('LK005', format('%s %L: letters, digits and _.:- only, 1 to 64 characters',
                                         p_what, p_value));
  END IF;
END $$;

CREATE OR REPLACE FUNCTION link._check_cards(p_cards text, p_what text) RETURNS void
LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
  IF p_cards IS NULL OR p_cards !~ '^([2-9TJQKA][cdhs]){5,7}$' THEN
    PERFORM link._refuse('LK005', format('%s %L: five to seven cards such as AhKhQhJhTh', p_what, p_cards));
  END IF;
END $$;

-- How long after a round's contribution its claim may come (issue 16): a round is
-- settled minutes after its lock-out; a claim for a round long past is refused (a
-- claim the outbox held through a longer outage is put right by `link reconcile`).
CREATE OR REPLACE FUNCTION link._claim_window() RETURNS interval LANGUAGE sql IMMUTABLE AS $$
  SELECT interval '5 minutes'
$$;

-- The progressive category five cards make (5324.37(g)(4)), as controller/hands names
-- it: royal-flush, straight-flush, four-of-a-kind, full-house, flush, or 'lower';
-- NULL when they are not five distinct cards.
CREATE OR REPLACE FUNCTION link._stud_hand(p_cards text) RETURNS text
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE ranks int[]; suits text[]; counts int[]; flush boolean; straight boolean;
BEGIN
  IF p_cards IS NULL OR p_cards !~ '^([2-9TJQKA][cdhs]){5}$' THEN RETURN NULL; END IF;
  SELECT array_agg(strpos('23456789TJQKA', substr(p_cards, g * 2 + 1, 1)) + 1 ORDER BY g),
         array_agg(substr(p_cards, g * 2 + 2, 1) ORDER BY g)
    INTO ranks, suits FROM generate_series(0, 4) g;
  IF (SELECT count(DISTINCT substr(p_cards, g * 2 + 1, 2)) FROM generate_series(0, 4) g) <> 5 THEN
    RETURN NULL;
  END IF;
  flush := (SELECT count(DISTINCT x) FROM unnest(suits) x) = 1;
  SELECT array_agg(n ORDER BY n DESC) INTO counts FROM (SELECT count(*)::int AS n FROM unnest(ranks) x GROUP BY x) q;
  straight := counts[1] = 1 AND ((SELECT max(x) - min(x) FROM unnest(ranks) x) = 4
                                 OR (SELECT array_agg(x ORDER BY x) FROM unnest(ranks) x) = ARRAY[2, 3, 4, 5, 14]);
  IF straight AND flush THEN
    RETURN CASE WHEN (SELECT min(x) FROM unnest(ranks) x) = 10 THEN 'royal-flush' ELSE 'straight-flush' END;
  END IF;
  IF counts[1] = 4 THEN RETURN 'four-of-a-kind'; END IF;
  IF counts[1] = 3 AND counts[2] = 2 THEN RETURN 'full-house'; END IF;
  IF flush THEN RETURN 'flush'; END IF;
  RETURN 'lower';
END $$;

CREATE OR REPLACE FUNCTION link._move(p link.pools, p_seq bigint, p_kind text, p_units bigint)
RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE after bigint;
BEGIN
  UPDATE link.pools SET meter_units = meter_units + p_units WHERE pool_id = p.pool_id
    RETURNING meter_units INTO after;
  INSERT INTO link.meter_moves (pool_id, op_seq, kind, units, meter_units_after)
    VALUES (p.pool_id, p_seq, p_kind, p_units, after);
  RETURN after;
END $$;

CREATE OR REPLACE FUNCTION link._next_seq(p_pool_id int) RETURNS bigint
LANGUAGE sql AS $$
  UPDATE link.pools SET next_seq = next_seq + 1 WHERE pool_id = p_pool_id RETURNING next_seq - 1;
$$;

-- A retired pool takes no table's operation (issue 29 item 7): its tables stop offering the wager.
CREATE OR REPLACE FUNCTION link._not_retired(p link.pools) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF p.retired IS NOT NULL THEN
    PERFORM link._refuse('LK011', format('pool %s was retired at %s (%s): its tables offer no progressive wager '
                                         'until they are assigned a pool', p.name, p.retired ->> 'at',
                                         coalesce('amount moved to pool ' || (p.retired ->> 'to'),
                                                  'amount recorded as a liability: ' || (p.retired ->> 'liability'))));
  END IF;
END $$;

-- The limit of a pool's parameters in units (1/10000 cent), NULL for none (9 NYCRR 5320.8).
CREATE OR REPLACE FUNCTION link._limit_units(p_params jsonb) RETURNS bigint
LANGUAGE sql IMMUTABLE AS $$ SELECT (p_params ->> 'limit')::bigint * 10000 $$;

-- `p_units` into the meter as a move of `p_kind`, up to the limit of `p_params`; what would take the meter
-- past it goes on to the overflow meter (a 'to-overflow' move). The meter's units after.
CREATE OR REPLACE FUNCTION link._move_limited(p link.pools, p_seq bigint, p_kind text, p_units bigint,
                                              p_params jsonb) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE lim bigint := link._limit_units(p_params); after bigint; excess bigint;
BEGIN
  after := link._move(p, p_seq, p_kind, p_units);
  IF lim IS NOT NULL AND after > lim THEN
    excess := least(p_units, after - lim);
    IF excess > 0 THEN
      UPDATE link.pools SET meter_units = meter_units - excess, overflow_units = overflow_units + excess
        WHERE pool_id = p.pool_id RETURNING meter_units INTO after;
      INSERT INTO link.meter_moves (pool_id, op_seq, kind, units, meter_units_after, overflow_units)
        VALUES (p.pool_id, p_seq, 'to-overflow', -excess, after, excess);
    END IF;
  END IF;
  RETURN after;
END $$;

-- The parameters of a pool, refused with the provision that sets a floor.
CREATE OR REPLACE FUNCTION link._check_params(p_kind text, p jsonb) RETURNS void
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE k text; sf jsonb;
BEGIN
  IF jsonb_typeof(p) IS DISTINCT FROM 'object' THEN
    PERFORM link._refuse('LK005', 'parameters must be a JSON object');
  END IF;
  IF p_kind = 'progressive' THEN
    FOR k IN SELECT jsonb_object_keys(p) LOOP
      IF k NOT IN ('wager', 'reset', 'contribution_bp', 'flush', 'full-house', 'four-of-a-kind',
                   'straight-flush', 'limit', 'overflow') THEN
        PERFORM link._refuse('LK005', format('params.%s: unknown parameter', k));
      END IF;
    END LOOP;
    FOREACH k IN ARRAY ARRAY['wager', 'reset', 'contribution_bp', 'flush', 'full-house', 'four-of-a-kind'] LOOP
      IF jsonb_typeof(p -> k) IS DISTINCT FROM 'number' OR (p ->> k) !~ '^[0-9]+$' THEN
        PERFORM link._refuse('LK005', format('params.%s: a whole number is required', k));
      END IF;
    END LOOP;
    IF (p ->> 'wager')::bigint < 1 THEN
      PERFORM link._refuse('LK005', 'params.wager: must be at least 1 cent');
    END IF;
    IF (p ->> 'contribution_bp')::bigint NOT BETWEEN 7000 AND 10000 THEN
      PERFORM link._refuse('LK005', 'params.contribution_bp: 7000 to 10000 (9 NYCRR 5324.37(g)(5))');
    END IF;
    IF (p ->> 'flush')::bigint < 5000 OR (p ->> 'full-house')::bigint < 10000
       OR (p ->> 'four-of-a-kind')::bigint < 50000 THEN
      PERFORM link._refuse('LK005', 'params: an award below 9 NYCRR 5324.37(g)(4) (flush 5000, full-house 10000, four-of-a-kind 50000)');
    END IF;
    IF p ? 'limit' THEN   -- 9 NYCRR 5320.8: a prize's limit, never below where the meter restarts
      IF jsonb_typeof(p -> 'limit') IS DISTINCT FROM 'number' OR (p ->> 'limit') !~ '^[0-9]+$' THEN
        PERFORM link._refuse('LK005', 'params.limit: a whole number of cents is required');
      END IF;
      IF (p ->> 'limit')::bigint < (p ->> 'reset')::bigint THEN
        PERFORM link._refuse('LK005', format('params.limit %s: is below the reset %s: the meter could never stand at '
                                             'its reset under this limit (9 NYCRR 5320.8: a prize''s limit)',
                                             p ->> 'limit', p ->> 'reset'));
      END IF;
      IF coalesce(p ->> 'overflow', 'next-reset') <> 'next-reset' THEN
        PERFORM link._refuse('LK005', 'params.overflow: "next-reset" (the overflow seeds the meter after its next reset)');
      END IF;
    ELSIF p ? 'overflow' THEN
      PERFORM link._refuse('LK005', 'params.overflow: an overflow needs a limit (9 NYCRR 5320.8)');
    END IF;
    sf := p -> 'straight-flush';
    IF jsonb_typeof(sf) IS DISTINCT FROM 'object' THEN
      PERFORM link._refuse('LK005', 'params.straight-flush: {"percent_of_meter": N} or {"fixed": cents}');
    ELSIF sf ? 'percent_of_meter' AND NOT sf ? 'fixed' AND (SELECT count(*) FROM jsonb_object_keys(sf)) = 1 THEN
      IF (sf ->> 'percent_of_meter') !~ '^[0-9]+$' OR (sf ->> 'percent_of_meter')::int NOT BETWEEN 10 AND 100 THEN
        PERFORM link._refuse('LK005', 'params.straight-flush.percent_of_meter: 10 to 100 (9 NYCRR 5324.37(g)(4))');
      END IF;
    ELSIF sf ? 'fixed' AND (SELECT count(*) FROM jsonb_object_keys(sf)) = 1 THEN
      IF (sf ->> 'fixed') !~ '^[0-9]+$' OR (sf ->> 'fixed')::bigint < 500000 THEN
        PERFORM link._refuse('LK005', 'params.straight-flush.fixed: at least 500000 (9 NYCRR 5324.37(g)(4))');
      END IF;
    ELSE
      PERFORM link._refuse('LK005', 'params.straight-flush: {"percent_of_meter": N} or {"fixed": cents}');
    END IF;
  ELSIF p_kind = 'jackpot' THEN
    FOR k IN SELECT jsonb_object_keys(p) LOOP
      IF k NOT IN ('qualifying_hand', 'min_value', 'contribution') THEN
        PERFORM link._refuse('LK005', format('params.%s: unknown parameter', k));
      END IF;
    END LOOP;
    IF jsonb_typeof(p -> 'qualifying_hand') IS DISTINCT FROM 'string' THEN
      PERFORM link._refuse('LK005', 'params.qualifying_hand: the name of the least qualifying hand is required');
    END IF;
    FOREACH k IN ARRAY ARRAY['min_value', 'contribution'] LOOP
      IF jsonb_typeof(p -> k) IS DISTINCT FROM 'number' OR (p ->> k) !~ '^[0-9]+$' THEN
        PERFORM link._refuse('LK005', format('params.%s: a whole number is required', k));
      END IF;
    END LOOP;
    IF (p ->> 'contribution')::bigint < 1 THEN
      PERFORM link._refuse('LK005', 'params.contribution: the most taken from a pot, at least 1 cent (5324.42(r)(2)(ii))');
    END IF;
  ELSE
    PERFORM link._refuse('LK005', format('kind %L: progressive or jackpot', p_kind));
  END IF;
END $$;

-- One table's records in the pool, the same lines the table's outbox holds
-- (controller/link/digest.py): kind, round (or hand), key, amount.
CREATE OR REPLACE FUNCTION link._records(p_pool_id int, p_table text)
RETURNS TABLE (kind text, round_id text, key uuid, amount bigint)
LANGUAGE sql STABLE AS $$
  SELECT 'contribution', c.round_id, c.key, c.units FROM link.contributions c
    WHERE c.pool_id = p_pool_id AND c.table_name = p_table AND c.voided_by IS NULL
  UNION ALL
  SELECT 'claim', c.round_id, c.key, c.total_cents FROM link.claims c
    WHERE c.pool_id = p_pool_id AND c.table_name = p_table AND c.voided_by IS NULL
  UNION ALL
  SELECT 'settle', a.round_id || '#' || a.seat, a.settled_key,
         CASE a.status WHEN 'voided' THEN -a.amount_cents ELSE a.amount_cents END
    FROM link.awards a
    WHERE a.pool_id = p_pool_id AND a.table_name = p_table AND a.settled_key IS NOT NULL
  UNION ALL
  SELECT 'jackpot-contribution', j.hand_id, j.key, j.amount_cents FROM link.jackpot_contributions j
    WHERE j.pool_id = p_pool_id AND j.table_name = p_table
  UNION ALL
  SELECT 'qualify', q.hand_id || '#' || q.seat, q.key, q.value FROM link.qualifying_hands q
    WHERE q.pool_id = p_pool_id AND q.table_name = p_table
$$;

CREATE OR REPLACE FUNCTION link._digest(p_pool_id int, p_table text, OUT n bigint, OUT digest text)
LANGUAGE sql STABLE AS $$
  SELECT count(*),
         encode(sha256(convert_to(coalesce(
           string_agg(r.kind || '|' || r.round_id || '|' || r.key::text || '|' || r.amount::text || E'\n',
                      '' ORDER BY r.key::text COLLATE "C"), ''), 'UTF8')), 'hex')
    FROM link._records(p_pool_id, p_table) r
$$;

CREATE OR REPLACE FUNCTION link._pending(p_pool_id int) RETURNS jsonb
LANGUAGE sql STABLE AS $$
  SELECT coalesce(jsonb_agg(jsonb_build_object(
           'seq', a.seq, 'table', a.table_name, 'round', a.round_id, 'seat', a.seat,
           'hand', a.hand, 'amount_cents', a.amount_cents, 'committed_at', a.committed_at)
           ORDER BY a.seq), '[]'::jsonb)
    FROM link.awards a WHERE a.pool_id = p_pool_id AND a.status = 'pending'
$$;

CREATE OR REPLACE FUNCTION link._award_json(a link.awards) RETURNS jsonb
LANGUAGE sql IMMUTABLE AS $$
  SELECT jsonb_build_object(
    'seq', a.seq, 'seat', a.seat, 'hand', a.hand, 'cards', a.cards, 'amount_cents', a.amount_cents,
    'from_meter', a.from_meter, 'meter_before_cents', a.meter_before_cents,
    'meter_after_cents', a.meter_after_cents, 'shared_by', a.shared_by, 'status', a.status)
$$;

-- --------------------------------------------------------------------------
-- Table functions (granted to link_table)
-- --------------------------------------------------------------------------

CREATE OR REPLACE FUNCTION link.table_state(p_pool text) RETURNS jsonb
LANGUAGE plpgsql SECURITY DEFINER SET search_path = link, pg_catalog, pg_temp AS $$
DECLARE p link.pools; t text; pt link.pool_tables; per link.periods; lead jsonb; last jsonb;
BEGIN
  SELECT * INTO p FROM link.pools WHERE name = p_pool;
  IF NOT FOUND THEN PERFORM link._refuse('LK010', format('no pool named %L', p_pool)); END IF;
  t := link._caller(p);
  PERFORM link._not_retired(p);
  SELECT * INTO pt FROM link.pool_tables WHERE pool_id = p.pool_id AND table_name = t;
  IF pt.last_seen IS NULL OR pt.last_seen < now() - interval '5 seconds' THEN
    UPDATE link.pool_tables SET last_seen = now() WHERE pool_id = p.pool_id AND table_name = t;
  END IF;
  IF p.kind = 'jackpot' THEN
    SELECT * INTO per FROM link.periods WHERE pool_id = p.pool_id AND status = 'open';
    SELECT jsonb_build_object('value', q.value, 'hand', q.hand, 'table', q.table_name, 'seat', q.seat,
                              'hand_id', q.hand_id, 'cards', q.cards)
      INTO lead FROM link.qualifying_hands q
      WHERE q.pool_id = p.pool_id AND q.period = per.number ORDER BY q.value DESC, q.seq LIMIT 1;
    -- the last period closed, as announced (5324.42(r)(5)-(7)): paid to whom, or rolled over
    SELECT jsonb_build_object('number', c.number, 'status', c.status, 'total_cents', c.total_cents,
             'closed_at', c.closed_at,
             'winners', (SELECT coalesce(jsonb_agg(jsonb_build_object('table', a.table_name, 'seat', a.seat,
                                   'hand_id', a.hand_id, 'hand', q.hand, 'amount_cents', a.amount_cents,
                                   'shared_by', a.shared_by) ORDER BY a.seq), '[]'::jsonb)
                           FROM link.jackpot_awards a JOIN link.qualifying_hands q
                             ON q.pool_id = a.pool_id AND q.seq = a.qualifying_seq
                          WHERE a.pool_id = p.pool_id AND a.period = c.number))
      INTO last FROM link.periods c
      WHERE c.pool_id = p.pool_id AND c.status <> 'open' ORDER BY c.number DESC LIMIT 1;
  END IF;
  RETURN jsonb_build_object(
    'pool', p.name, 'kind', p.kind, 'table', t, 'version', p.version, 'params', p.params,
    'meter_cents', p.meter_units / 10000, 'meter_fraction', p.meter_units % 10000,
    'overflow_units', p.overflow_units, 'limit_cents', (p.params ->> 'limit')::bigint,
    'live', pt.live, 'pending', link._pending(p.pool_id),
    'period', per.number, 'leading', lead, 'last_period', last);
END $$;

-- The table made live on its pool: only through link.open_table(pool, mode), which checks its mode first
-- (not granted to the tables).
CREATE OR REPLACE FUNCTION link._open_table(p_pool text) RETURNS jsonb
LANGUAGE plpgsql SECURITY DEFINER SET search_path = link, pg_catalog, pg_temp AS $$
DECLARE p link.pools; t text; was boolean;
BEGIN
  -- KEY SHARE: orders this with set_params (FOR UPDATE), never with the meter's operations
  SELECT * INTO p FROM link.pools WHERE name = p_pool FOR KEY SHARE;
  IF NOT FOUND THEN PERFORM link._refuse('LK010', format('no pool named %L', p_pool)); END IF;
  t := link._caller(p);
  SELECT live INTO was FROM link.pool_tables WHERE pool_id = p.pool_id AND table_name = t;
  IF NOT was THEN
    UPDATE link.pool_tables SET live = true, live_since = now(), last_seen = now()
      WHERE pool_id = p.pool_id AND table_name = t;
    INSERT INTO link.changes (pool_id, who, what, detail)
      VALUES (p.pool_id, t, 'table live', jsonb_build_object('table', t, 'version', p.version));
  END IF;
  RETURN link.table_state(p_pool);
END $$;

-- Test mode is never play (9 NYCRR 5319.58; issue 28): a link is made live or test (`tablectl link init
-- [--test]`, live unless asked) and never changes; a table that says its mode as it opens (the table's
-- own client always does) is refused by a link of the other mode, before it is live on any pool.
CREATE TABLE IF NOT EXISTS link.settings (
  only_row  boolean PRIMARY KEY DEFAULT true CHECK (only_row),
  mode      text NOT NULL CHECK (mode IN ('live', 'test'))
);

CREATE OR REPLACE FUNCTION link.open_table(p_pool text, p_mode text) RETURNS jsonb
LANGUAGE plpgsql SECURITY DEFINER SET search_path = link, pg_catalog, pg_temp AS $$
DECLARE link_mode text;
BEGIN
  SELECT mode INTO link_mode FROM link.settings;
  link_mode := COALESCE(link_mode, 'live');
  IF p_mode IS NULL OR p_mode NOT IN ('live', 'test') THEN
    IF link_mode = 'live' THEN
      PERFORM link._refuse('LK041', 'a table that does not state its mode (live or test) is refused by a live link');
    END IF;
    p_mode := 'test';   -- a test link takes it as what it is: not play
  END IF;
  IF link_mode IS DISTINCT FROM p_mode THEN
    PERFORM link._refuse('LK040', format('a %s table is refused by a %s link', p_mode, link_mode));
  END IF;
  RETURN link._open_table(p_pool);
END $$;

-- A table that does not say its mode (a tool, a client of before issue 28): a live link refuses it, a test
-- link takes it as a test table. A pool checks the mode of every table it opens.
CREATE OR REPLACE FUNCTION link.open_table(p_pool text) RETURNS jsonb
LANGUAGE plpgsql SECURITY DEFINER SET search_path = link, pg_catalog, pg_temp AS $$
BEGIN
  RETURN link.open_table(p_pool, NULL);
END $$;

CREATE OR REPLACE FUNCTION link.close_table(p_pool text) RETURNS jsonb
LANGUAGE plpgsql SECURITY DEFINER SET search_path = link, pg_catalog, pg_temp AS $$
DECLARE p link.pools; t text; was boolean;
BEGIN
  -- KEY SHARE: orders this with set_params (FOR UPDATE), never with the meter's operations
  SELECT * INTO p FROM link.pools WHERE name = p_pool FOR KEY SHARE;
  IF NOT FOUND THEN PERFORM link._refuse('LK010', format('no pool named %L', p_pool)); END IF;
  t := link._caller(p);
  SELECT live INTO was FROM link.pool_tables WHERE pool_id = p.pool_id AND table_name = t;
  IF was THEN
    UPDATE link.pool_tables SET live = false, live_since = NULL, last_seen = now()
      WHERE pool_id = p.pool_id AND table_name = t;
    INSERT INTO link.changes (pool_id, who, what, detail)
      VALUES (p.pool_id, t, 'table closed', jsonb_build_object('table', t));
  END IF;
  RETURN link.table_state(p_pool);
END $$;

-- A round's progressive wagers at lock-out, 5324.37(g)(5): stake x rate added to
-- the meter exactly. Idempotent by key; one contribution per table and round.
CREATE OR REPLACE FUNCTION link.contribute(p_pool text, p_round text, p_key uuid, p_seats int[],
                                           p_version int) RETURNS jsonb
LANGUAGE plpgsql SECURITY DEFINER SET search_path = link, pg_catalog, pg_temp AS $$
DECLARE
  p link.pools; t text; c link.contributions; v_seats int[]; v_stake bigint; v_units bigint;
  v_seq bigint; v_after bigint; v_lim bigint; v_excess bigint := 0;
BEGIN
  -- what needs no meter is checked before the meter row is taken (issue 16: held for the shortest time)
  PERFORM link._check_id(p_round, 'round');
  SELECT array_agg(DISTINCT s ORDER BY s) INTO v_seats FROM unnest(p_seats) s;
  IF v_seats IS NULL OR cardinality(v_seats) <> cardinality(p_seats) OR v_seats[1] < 1
     OR v_seats[cardinality(v_seats)] > 7 THEN
    PERFORM link._refuse('LK005', format('seats %s: distinct seats 1 to 7 (5324.37(a)(1)), at least one', p_seats));
  END IF;
  p := link._lock_meter(p_pool, 'progressive');
  t := link._caller(p);
  SELECT * INTO c FROM link.contributions WHERE key = p_key;
  IF FOUND THEN
    IF c.pool_id <> p.pool_id OR c.table_name <> t OR c.round_id <> p_round
       OR c.seats IS DISTINCT FROM v_seats THEN
      PERFORM link._refuse('LK002', format('key %s is already the contribution of table %s round %s',
                                           p_key, c.table_name, c.round_id));
    END IF;
    RETURN jsonb_build_object('seq', c.seq, 'units', c.units, 'stake_cents', c.stake_cents,
                              'meter_units_after', c.meter_units_after, 'duplicate', true);
  END IF;
  IF EXISTS (SELECT 1 FROM link.contributions
             WHERE pool_id = p.pool_id AND table_name = t AND round_id = p_round) THEN
    PERFORM link._refuse('LK002', format('table %s already contributed for round %s under another key', t, p_round));
  END IF;
  IF p_version IS DISTINCT FROM p.version THEN
    PERFORM link._refuse('LK003', format('pool %s plays parameters version %s, not %s', p.name, p.version, p_version));
  END IF;
  v_stake := cardinality(v_seats) * (p.params ->> 'wager')::bigint;
  v_units := v_stake * (p.params ->> 'contribution_bp')::bigint;
  -- one statement for sequence and meter: the row lock is held until the commit, keep it short
  UPDATE link.pools SET meter_units = meter_units + v_units, next_seq = next_seq + 1
    WHERE pool_id = p.pool_id RETURNING next_seq - 1, meter_units INTO v_seq, v_after;
  INSERT INTO link.meter_moves (pool_id, op_seq, kind, units, meter_units_after)
    VALUES (p.pool_id, v_seq, 'contribution', v_units, v_after);
  v_lim := link._limit_units(p.params);
  IF v_lim IS NOT NULL AND v_after > v_lim THEN   -- 5320.8: past the limit, into the overflow
    v_excess := least(v_units, v_after - v_lim);
    UPDATE link.pools SET meter_units = meter_units - v_excess, overflow_units = overflow_units + v_excess
      WHERE pool_id = p.pool_id RETURNING meter_units INTO v_after;
    INSERT INTO link.meter_moves (pool_id, op_seq, kind, units, meter_units_after, overflow_units)
      VALUES (p.pool_id, v_seq, 'to-overflow', -v_excess, v_after, v_excess);
  END IF;
  INSERT INTO link.contributions (pool_id, seq, table_name, round_id, key, seats, stake_cents, rate_bp,
                                  units, meter_units_after, version)
    VALUES (p.pool_id, v_seq, t, p_round, p_key, v_seats, v_stake,
            (p.params ->> 'contribution_bp')::int, v_units, v_after, p.version);
  RETURN jsonb_build_object('seq', v_seq, 'units', v_units, 'stake_cents', v_stake,
                            'meter_units_after', v_after, 'to_overflow_units', v_excess,
                            'overflow_units_after', (SELECT overflow_units FROM link.pools WHERE pool_id = p.pool_id),
                            'limit_cents', (p.params ->> 'limit')::bigint, 'duplicate', false);
END $$;

CREATE OR REPLACE FUNCTION link._claim_json(p_key uuid, p_duplicate boolean) RETURNS jsonb
LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'total_cents', c.total_cents, 'duplicate', p_duplicate,
    'awards', (SELECT coalesce(jsonb_agg(link._award_json(a) ORDER BY a.seq), '[]'::jsonb)
                 FROM link.awards a WHERE a.claim_key = c.key))
  FROM link.claims c WHERE c.key = p_key
$$;

-- A round's winning progressive hands, paid from the one meter in payment order
-- (seat 7 down to seat 1) at the meter as it stands at each one's turn
-- (5324.37(g)(4), (g)(6); 5321.18(b)(3)(iii)): fixed awards are the house's; a
-- straight flush by percent takes that percent of the meter, rounded down; the
-- first royal flush takes the whole meter, shared by every royal of the round
-- (odd cents to the first paid), and the meter reseeds at once. Every award is
-- pending until the table's supervisor validates it (5324.37(f)(2)).
-- controller/progressive.py pay_awards is the reference; link check replays it.
CREATE OR REPLACE FUNCTION link._claim(p_pool text, p_round text, p_key uuid, p_hits jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  p link.pools; t text; c link.contributions; latest link.contributions; h record; v_hits jsonb; k text; named text;
  n_royal int; royal_total bigint; royal_i int := 0; royal_before bigint;
  m bigint; amt bigint; fromm boolean; v_seq bigint; total bigint := 0; sf jsonb; twice text; used bigint;
BEGIN
  -- the claim as such (its form, and each hand's cards against the hand ranking) before the meter row
  IF jsonb_typeof(p_hits) IS DISTINCT FROM 'array' OR jsonb_array_length(p_hits) = 0 THEN
    PERFORM link._refuse('LK005', 'hits: a non-empty list of {"seat", "hand", "cards"}');
  END IF;
  FOR h IN SELECT value AS v, ordinality AS i FROM jsonb_array_elements(p_hits) WITH ORDINALITY LOOP
    IF jsonb_typeof(h.v) IS DISTINCT FROM 'object' THEN
      PERFORM link._refuse('LK005', format('hits[%s]: must be an object', h.i - 1));
    END IF;
    FOR k IN SELECT jsonb_object_keys(h.v) LOOP
      IF k NOT IN ('seat', 'hand', 'cards') THEN
        PERFORM link._refuse('LK005', format('hits[%s].%s: unknown field', h.i - 1, k));
      END IF;
    END LOOP;
    IF jsonb_typeof(h.v -> 'seat') IS DISTINCT FROM 'number' OR (h.v ->> 'seat') !~ '^[1-7]$' THEN
      PERFORM link._refuse('LK005', format('hits[%s].seat: 1 to 7', h.i - 1));
    END IF;
    IF (h.v ->> 'hand') IS NULL OR (h.v ->> 'hand') NOT IN
       ('flush', 'full-house', 'four-of-a-kind', 'straight-flush', 'royal-flush') THEN
      PERFORM link._refuse('LK005', format('hits[%s].hand %L: not a progressive hand (5324.37(g)(4))',
                                           h.i - 1, h.v ->> 'hand'));
    END IF;
    PERFORM link._check_cards(h.v ->> 'cards', format('hits[%s].cards', h.i - 1));
    named := link._stud_hand(h.v ->> 'cards');
    IF named IS DISTINCT FROM (h.v ->> 'hand') THEN
      PERFORM link._refuse('LK009', format('hits[%s]: cards %s make %s, not %s (the hand ranking, 5324.37(g)(4))',
                                           h.i - 1, h.v ->> 'cards', coalesce(named, 'no five-card hand'),
                                           h.v ->> 'hand'));
    END IF;
  END LOOP;
  -- one deck a round: a card is in one hand only
  SELECT string_agg(DISTINCT card, ' ') INTO twice FROM (
    SELECT substr(e ->> 'cards', g * 2 + 1, 2) AS card FROM jsonb_array_elements(p_hits) e,
           generate_series(0, 4) g) x
    WHERE card IN (SELECT substr(e ->> 'cards', g * 2 + 1, 2) FROM jsonb_array_elements(p_hits) e,
                          generate_series(0, 4) g GROUP BY 1 HAVING count(*) > 1);
  IF twice IS NOT NULL THEN
    PERFORM link._refuse('LK009', format('hits: card(s) %s in two hands of one round', twice));
  END IF;
  SELECT jsonb_agg(jsonb_build_object('seat', (e ->> 'seat')::int, 'hand', e ->> 'hand', 'cards', e ->> 'cards')
                   ORDER BY (e ->> 'seat')::int DESC)
    INTO v_hits FROM jsonb_array_elements(p_hits) e;

  p := link._lock_meter(p_pool, 'progressive');
  t := link._caller(p);
  IF EXISTS (SELECT 1 FROM link.claims WHERE key = p_key) THEN
    IF NOT EXISTS (SELECT 1 FROM link.claims WHERE key = p_key AND pool_id = p.pool_id AND table_name = t
                   AND round_id = p_round AND hits = v_hits) THEN
      PERFORM link._refuse('LK002', format('key %s is already another claim', p_key));
    END IF;
    RETURN link._claim_json(p_key, true);
  END IF;
  PERFORM link._check_id(p_round, 'round');
  IF EXISTS (SELECT 1 FROM link.claims WHERE pool_id = p.pool_id AND table_name = t AND round_id = p_round) THEN
    PERFORM link._refuse('LK002', format('table %s already claimed round %s under another key', t, p_round));
  END IF;
  IF (SELECT count(DISTINCT e ->> 'seat') FROM jsonb_array_elements(v_hits) e) <> jsonb_array_length(v_hits) THEN
    PERFORM link._refuse('LK005', 'hits: a seat appears twice');
  END IF;
  -- FOR SHARE: ordered with the round's close (link.close_round), which takes no meter row
  SELECT * INTO c FROM link.contributions WHERE pool_id = p.pool_id AND table_name = t AND round_id = p_round
    AND voided_by IS NULL FOR SHARE;
  IF NOT FOUND THEN
    PERFORM link._refuse('LK007', format('round %s of table %s has no progressive contribution: a hit needs a progressive wager', p_round, t));
  END IF;
  -- the round in progress only (issue 26): the table's latest contribution, not closed
  SELECT * INTO latest FROM link.contributions WHERE pool_id = p.pool_id AND table_name = t AND voided_by IS NULL
    ORDER BY seq DESC LIMIT 1;
  IF latest.round_id <> p_round THEN
    PERFORM link._refuse('LK009', format('round %s is not the round table %s is playing: its latest contribution '
                                         'is round %s; a claim is for the round in progress', p_round, t,
                                         latest.round_id));
  END IF;
  IF c.closed_at IS NOT NULL THEN
    PERFORM link._refuse('LK009', format('round %s of table %s was closed with the pool at %s: a claim comes before '
                                         'its round closes', p_round, t, c.closed_at));
  END IF;
  -- a claim follows its round's lock-out within the bound, not a round long past (issue 16)
  IF clock_timestamp() > c.committed_at + link._claim_window() THEN
    PERFORM link._refuse('LK009', format('round %s of table %s contributed at %s: a claim comes within %s of its '
                                         'contribution', p_round, t, c.committed_at, link._claim_window()));
  END IF;
  FOR h IN SELECT (e ->> 'seat')::int AS seat FROM jsonb_array_elements(v_hits) e LOOP
    IF NOT h.seat = ANY (c.seats) THEN
      PERFORM link._refuse('LK005', format('seat %s had no progressive wager in round %s', h.seat, p_round));
    END IF;
  END LOOP;

  INSERT INTO link.claims (key, pool_id, table_name, round_id, hits, version, total_cents)
    VALUES (p_key, p.pool_id, t, p_round, v_hits, c.version, 0);
  SELECT count(*) INTO n_royal FROM jsonb_array_elements(v_hits) e WHERE e ->> 'hand' = 'royal-flush';
  sf := (SELECT params FROM link.param_versions WHERE pool_id = p.pool_id AND version = c.version)
        -> 'straight-flush';
  p.params := (SELECT params FROM link.param_versions WHERE pool_id = p.pool_id AND version = c.version);

  FOR h IN SELECT (e ->> 'seat')::int AS seat, e ->> 'hand' AS hand, e ->> 'cards' AS cards
             FROM jsonb_array_elements(v_hits) e ORDER BY (e ->> 'seat')::int DESC LOOP
    SELECT meter_units / 10000 INTO m FROM link.pools WHERE pool_id = p.pool_id;
    royal_before := m;
    v_seq := link._next_seq(p.pool_id);
    IF h.hand IN ('flush', 'full-house', 'four-of-a-kind') THEN
      amt := (p.params ->> h.hand)::bigint; fromm := false;
    ELSIF h.hand = 'straight-flush' AND sf ? 'fixed' THEN
      amt := (sf ->> 'fixed')::bigint; fromm := false;
    ELSIF h.hand = 'straight-flush' THEN
      amt := m * (sf ->> 'percent_of_meter')::bigint / 100; fromm := true;
      PERFORM link._move(p, v_seq, 'award', -amt * 10000);
    ELSE  -- royal flush
      fromm := true;
      IF royal_i = 0 THEN
        royal_total := m;
        -- the whole meter leaves at the first royal's turn, every share at once
        PERFORM link._move(p, v_seq, 'award', -m * 10000);
        PERFORM link._move(p, v_seq, 'reseed', (p.params ->> 'reset')::bigint * 10000);
        -- "next-reset" (5320.8): the overflow seeds the restarted meter, in whole cents, up to the limit
        IF p.params ? 'limit' THEN
          SELECT least(overflow_units / 10000, greatest(0, (p.params ->> 'limit')::bigint
                                                        - (p.params ->> 'reset')::bigint)) * 10000
            INTO used FROM link.pools WHERE pool_id = p.pool_id;
          IF used > 0 THEN
            UPDATE link.pools SET meter_units = meter_units + used, overflow_units = overflow_units - used
              WHERE pool_id = p.pool_id;
            INSERT INTO link.meter_moves (pool_id, op_seq, kind, units, meter_units_after, overflow_units)
              VALUES (p.pool_id, v_seq, 'from-overflow', used,
                      (SELECT meter_units FROM link.pools WHERE pool_id = p.pool_id), -used);
          END IF;
        END IF;
      END IF;
      royal_before := royal_total;
      amt := royal_total / n_royal + CASE WHEN royal_i < royal_total % n_royal THEN 1 ELSE 0 END;
      royal_i := royal_i + 1;
    END IF;
    total := total + amt;
    INSERT INTO link.awards (pool_id, seq, claim_key, table_name, round_id, seat, hand, cards, amount_cents,
                             from_meter, meter_before_cents, meter_after_cents, shared_by)
      VALUES (p.pool_id, v_seq, p_key, t, p_round, h.seat, h.hand, h.cards, amt, fromm, royal_before,
              (SELECT meter_units / 10000 FROM link.pools WHERE pool_id = p.pool_id),
              CASE WHEN h.hand = 'royal-flush' THEN n_royal ELSE 1 END);
  END LOOP;
  UPDATE link.claims SET total_cents = total WHERE key = p_key;
  PERFORM pg_notify('link_' || p.name, jsonb_build_object('event', 'awards', 'table', t, 'round', p_round)::text);
  RETURN link._claim_json(p_key, false);
END $$;

-- A claim as the tables call it: link._claim, and every refusal of it (a claim not borne
-- out by the pool's records, LK002 LK005 LK007 LK009) recorded in link.refusals and
-- answered {"refused": true, "code", "reason"} rather than raised, so the record commits
-- (issue 26). The table's client takes that answer as the pool's refusal. A claim that
-- does not name a pool, or is not a table's of it, is raised as before (nothing to record).
CREATE OR REPLACE FUNCTION link.claim(p_pool text, p_round text, p_key uuid, p_hits jsonb) RETURNS jsonb
LANGUAGE plpgsql SECURITY DEFINER SET search_path = link, pg_catalog, pg_temp AS $$
DECLARE v_code text; v_reason text;
BEGIN
  RETURN link._claim(p_pool, p_round, p_key, p_hits);
EXCEPTION WHEN SQLSTATE 'LK002' OR SQLSTATE 'LK005' OR SQLSTATE 'LK007' OR SQLSTATE 'LK009' THEN
  GET STACKED DIAGNOSTICS v_code = RETURNED_SQLSTATE, v_reason = MESSAGE_TEXT;
  RETURN link._refused('claim', p_pool, p_round, p_key, p_hits, v_code, v_reason);
END $$;

CREATE OR REPLACE FUNCTION link._refused(p_kind text, p_pool text, p_round text, p_key uuid, p_sent jsonb,
                                         p_code text, p_reason text) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE p link.pools; t text; r link.refusals;
BEGIN
  SELECT * INTO p FROM link.pools WHERE name = p_pool;
  IF NOT FOUND THEN PERFORM link._refuse('LK010', format('no pool named %L', p_pool)); END IF;
  t := link._caller(p);
  IF p_key IS NULL THEN
    PERFORM link._refuse(p_code, p_reason);   -- no key, no record of it to answer a retry by
  END IF;
  INSERT INTO link.refusals (pool_id, table_name, kind, round_id, key, code, reason, sent)
    VALUES (p.pool_id, t, p_kind, left(coalesce(p_round, ''), 64), p_key, p_code, left(p_reason, 500),
            left(coalesce(p_sent::text, ''), 1000))
    ON CONFLICT (key) DO NOTHING;
  SELECT * INTO r FROM link.refusals WHERE key = p_key;
  PERFORM pg_notify('link_' || p.name, jsonb_build_object('event', 'refused', 'table', t, 'kind', p_kind,
                                                          'round', r.round_id)::text);
  RETURN jsonb_build_object('refused', true, 'code', p_code, 'reason', p_reason, 'refusal', r.refusal_id,
                            'recorded_at', r.at);
END $$;

-- The table's round is over (issue 26): closed with the pool when the table records it
-- (settled or voided), after its claim, through the outbox like every operation. Once
-- closed, no claim for it is taken. Idempotent by key; a round closes once. It takes the
-- contribution's row, not the meter's: it moves no money (and is not in the digest).
CREATE OR REPLACE FUNCTION link.close_round(p_pool text, p_round text, p_key uuid) RETURNS jsonb
LANGUAGE plpgsql SECURITY DEFINER SET search_path = link, pg_catalog, pg_temp AS $$
DECLARE p link.pools; t text; c link.contributions;
BEGIN
  PERFORM link._check_id(p_round, 'round');
  IF p_key IS NULL THEN PERFORM link._refuse('LK005', 'key: a close needs its key'); END IF;
  SELECT * INTO p FROM link.pools WHERE name = p_pool;
  IF NOT FOUND THEN PERFORM link._refuse('LK010', format('no pool named %L', p_pool)); END IF;
  IF p.kind <> 'progressive' THEN
    PERFORM link._refuse('LK005', format('pool %s is a %s pool, not a progressive pool', p.name, p.kind));
  END IF;
  t := link._caller(p);
  SELECT * INTO c FROM link.contributions WHERE pool_id = p.pool_id AND table_name = t AND round_id = p_round
    FOR UPDATE;
  IF NOT FOUND THEN
    PERFORM link._refuse('LK007', format('round %s of table %s has no contribution to close', p_round, t));
  END IF;
  IF c.closed_key IS NOT NULL THEN
    IF c.closed_key <> p_key THEN
      PERFORM link._refuse('LK002', format('round %s of table %s is already closed under another key', p_round, t));
    END IF;
    RETURN jsonb_build_object('round', p_round, 'closed_at', c.closed_at, 'duplicate', true);
  END IF;
  UPDATE link.contributions SET closed_key = p_key, closed_at = clock_timestamp()
    WHERE pool_id = c.pool_id AND seq = c.seq RETURNING * INTO c;
  RETURN jsonb_build_object('round', p_round, 'closed_at', c.closed_at, 'duplicate', false);
END $$;

-- The supervisor's validation of a pending award (5324.37(f)(2)(iii)): paid, or
-- voided (the hand was not a winner), which returns a meter award to the meter.
-- The table's journal entry of that validation travels with it (issue 16): the entry's
-- number, time and hash, its source (the supervisor's screen) and the supervisor the
-- screen signed in; `link check --journal` holds it against the table's journal.
DROP FUNCTION IF EXISTS link.settle_award(text, text, int, uuid, text, text, text);
CREATE OR REPLACE FUNCTION link.settle_award(p_pool text, p_round text, p_seat int, p_key uuid,
                                             p_status text, p_supervisor text, p_reason text,
                                             p_validation jsonb) RETURNS jsonb
LANGUAGE plpgsql SECURITY DEFINER SET search_path = link, pg_catalog, pg_temp AS $$
DECLARE p link.pools; t text; a link.awards; v_seq bigint;
BEGIN
  IF jsonb_typeof(p_validation) IS DISTINCT FROM 'object'
     OR jsonb_typeof(p_validation -> 'entry') IS DISTINCT FROM 'number'
     OR jsonb_typeof(p_validation -> 'at') IS DISTINCT FROM 'string'
     OR coalesce(p_validation ->> 'hash', '') !~ '^[0-9a-f]{64}$'
     OR p_validation ->> 'source' IS DISTINCT FROM 'supervisor'
     OR p_validation ->> 'who' IS DISTINCT FROM btrim(p_supervisor)
     OR p_validation ->> 'event' IS DISTINCT FROM (CASE p_status WHEN 'paid' THEN 'validate' ELSE 'refuse' END)
     OR (p_validation ->> 'seat') IS DISTINCT FROM (p_seat::text) THEN
    PERFORM link._refuse('LK009', format('validation: the journal entry of supervisor %s''s %s of seat %s '
      '({"entry", "at", "hash", "source": "supervisor", "who", "event", "seat"}) must travel with a settlement '
      '(5324.37(f)(2)(iii))', p_supervisor, CASE p_status WHEN 'paid' THEN 'validate' ELSE 'refuse' END, p_seat));
  END IF;
  p := link._lock_meter(p_pool, 'progressive');
  t := link._caller(p);
  SELECT * INTO a FROM link.awards WHERE pool_id = p.pool_id AND table_name = t
    AND round_id = p_round AND seat = p_seat;
  IF NOT FOUND THEN
    PERFORM link._refuse('LK008', format('table %s has no award for round %s seat %s', t, p_round, p_seat));
  END IF;
  IF a.settled_key = p_key THEN
    IF a.status <> p_status THEN
      PERFORM link._refuse('LK002', format('key %s settled this award as %s', p_key, a.status));
    END IF;
    RETURN link._award_json(a) || jsonb_build_object('duplicate', true);
  END IF;
  IF a.status <> 'pending' THEN
    PERFORM link._refuse('LK002', format('the award of round %s seat %s is already %s', p_round, p_seat, a.status));
  END IF;
  IF p_status NOT IN ('paid', 'voided') THEN
    PERFORM link._refuse('LK005', format('status %L: paid or voided', p_status));
  END IF;
  IF p_supervisor IS NULL OR length(btrim(p_supervisor)) = 0 OR length(p_supervisor) > 100 THEN
    PERFORM link._refuse('LK005', 'supervisor: the name of the validating supervisor is required (5324.37(f)(2)(iii))');
  END IF;
  IF p_status = 'voided' AND (p_reason IS NULL OR length(btrim(p_reason)) = 0) THEN
    PERFORM link._refuse('LK005', 'reason: a voided award needs the reason');
  END IF;
  v_seq := link._next_seq(p.pool_id);
  IF p_status = 'voided' AND a.from_meter THEN   -- back into the meter up to its limit, the rest to the overflow
    PERFORM link._move_limited(p, v_seq, 'void-return', a.amount_cents * 10000,
                               (SELECT v.params FROM link.claims cl JOIN link.param_versions v
                                  ON v.pool_id = cl.pool_id AND v.version = cl.version WHERE cl.key = a.claim_key));
  END IF;
  UPDATE link.awards SET status = p_status, settled_key = p_key, settled_seq = v_seq,
         settled_by = btrim(p_supervisor), settled_reason = p_reason, settled_at = now(),
         validation = p_validation
    WHERE pool_id = a.pool_id AND seq = a.seq RETURNING * INTO a;
  PERFORM pg_notify('link_' || p.name, jsonb_build_object('event', 'settled', 'table', t, 'round', p_round)::text);
  RETURN link._award_json(a) || jsonb_build_object('duplicate', false);
END $$;

-- A pot's jackpot contribution, after the rake (5324.42(r)(3)), into the open
-- qualifying period.
CREATE OR REPLACE FUNCTION link.jackpot_contribute(p_pool text, p_hand text, p_key uuid, p_amount bigint)
RETURNS jsonb
LANGUAGE plpgsql SECURITY DEFINER SET search_path = link, pg_catalog, pg_temp AS $$
DECLARE p link.pools; t text; j link.jackpot_contributions; per int; v_seq bigint; v_after bigint;
BEGIN
  p := link._lock_meter(p_pool, 'jackpot');
  t := link._caller(p);
  SELECT * INTO j FROM link.jackpot_contributions WHERE key = p_key;
  IF FOUND THEN
    IF j.pool_id <> p.pool_id OR j.table_name <> t OR j.hand_id <> p_hand OR j.amount_cents <> p_amount THEN
      PERFORM link._refuse('LK002', format('key %s is already the contribution of table %s hand %s',
                                           p_key, j.table_name, j.hand_id));
    END IF;
    RETURN jsonb_build_object('seq', j.seq, 'period', j.period, 'amount_cents', j.amount_cents,
                              'meter_units_after', j.meter_units_after, 'duplicate', true);
  END IF;
  PERFORM link._check_id(p_hand, 'hand');
  IF p_amount IS NULL OR p_amount < 1 OR p_amount > (p.params ->> 'contribution')::bigint THEN
    PERFORM link._refuse('LK005', format('amount %s: 1 to %s cents, the most taken from a pot (5324.42(r)(2)(ii))',
                                         p_amount, p.params ->> 'contribution'));
  END IF;
  IF EXISTS (SELECT 1 FROM link.jackpot_contributions WHERE pool_id = p.pool_id AND table_name = t
             AND hand_id = p_hand) THEN
    PERFORM link._refuse('LK002', format('table %s already contributed for hand %s under another key', t, p_hand));
  END IF;
  SELECT number INTO per FROM link.periods WHERE pool_id = p.pool_id AND status = 'open';
  v_seq := link._next_seq(p.pool_id);
  v_after := link._move(p, v_seq, 'jackpot-contribution', p_amount * 10000);
  INSERT INTO link.jackpot_contributions (pool_id, seq, period, table_name, hand_id, key, amount_cents,
                                          meter_units_after)
    VALUES (p.pool_id, v_seq, per, t, p_hand, p_key, p_amount, v_after);
  RETURN jsonb_build_object('seq', v_seq, 'period', per, 'amount_cents', p_amount,
                            'meter_units_after', v_after, 'duplicate', false);
END $$;

-- A qualifying hand of the period (5324.42(r)(4)): every table's compete; one
-- at least as good as the best so far leads and is announced.
CREATE OR REPLACE FUNCTION link.jackpot_qualify(p_pool text, p_hand text, p_key uuid, p_seat int,
                                                p_value bigint, p_hand_name text, p_cards text,
                                                p_player text, p_verification jsonb) RETURNS jsonb
LANGUAGE plpgsql SECURITY DEFINER SET search_path = link, pg_catalog, pg_temp AS $$
DECLARE p link.pools; t text; q link.qualifying_hands; per int; best bigint; v_seq bigint; lead boolean;
BEGIN
  p := link._lock_meter(p_pool, 'jackpot');
  t := link._caller(p);
  SELECT * INTO q FROM link.qualifying_hands WHERE key = p_key;
  IF FOUND THEN
    IF q.pool_id <> p.pool_id OR q.table_name <> t OR q.hand_id <> p_hand OR q.seat <> p_seat
       OR q.value <> p_value THEN
      PERFORM link._refuse('LK002', format('key %s is already the qualifying hand of table %s hand %s seat %s',
                                           p_key, q.table_name, q.hand_id, q.seat));
    END IF;
    RETURN jsonb_build_object('seq', q.seq, 'period', q.period, 'leading', q.announced, 'duplicate', true);
  END IF;
  PERFORM link._check_id(p_hand, 'hand');
  PERFORM link._check_cards(p_cards, 'cards');
  IF p_seat IS NULL OR p_seat NOT BETWEEN 1 AND 10 THEN
    PERFORM link._refuse('LK005', format('seat %s: 1 to 10', p_seat));
  END IF;
  IF p_value IS NULL OR p_value < (p.params ->> 'min_value')::bigint THEN
    PERFORM link._refuse('LK005', format('hand value %s is below the least qualifying hand %s (5324.42(r)(4))',
                                         p_value, p.params ->> 'qualifying_hand'));
  END IF;
  IF p_player IS NULL OR length(btrim(p_player)) = 0 OR length(p_player) > 200 THEN
    PERFORM link._refuse('LK005', 'player: the reference of the player on the tracking form is required (5324.42(r)(4)(i))');
  END IF;
  IF EXISTS (SELECT 1 FROM link.qualifying_hands WHERE pool_id = p.pool_id AND table_name = t
             AND hand_id = p_hand AND seat = p_seat) THEN
    PERFORM link._refuse('LK002', format('table %s hand %s seat %s already qualified under another key', t, p_hand, p_seat));
  END IF;
  SELECT number INTO per FROM link.periods WHERE pool_id = p.pool_id AND status = 'open';
  SELECT max(value) INTO best FROM link.qualifying_hands WHERE pool_id = p.pool_id AND period = per;
  lead := best IS NULL OR p_value >= best;
  v_seq := link._next_seq(p.pool_id);
  IF p_verification IS NOT NULL AND (jsonb_typeof(p_verification) <> 'object'
     OR length(btrim(coalesce(p_verification ->> 'floorperson', ''))) = 0) THEN
    PERFORM link._refuse('LK005', 'verification: the floorperson who verified the hand is required (5324.42(r)(4)(v))');
  END IF;
  INSERT INTO link.qualifying_hands (pool_id, seq, period, table_name, hand_id, seat, key, player, value,
                                     hand, cards, announced, verification)
    VALUES (p.pool_id, v_seq, per, t, p_hand, p_seat, p_key, btrim(p_player), p_value, p_hand_name, p_cards, lead,
            p_verification);
  IF lead THEN
    PERFORM pg_notify('link_' || p.name, jsonb_build_object('event', 'leading', 'table', t, 'hand', p_hand_name,
                                                            'value', p_value)::text);
  END IF;
  RETURN jsonb_build_object('seq', v_seq, 'period', per, 'leading', lead, 'best_value', greatest(best, p_value),
                            'duplicate', false);
END $$;

-- The form of tables that send a qualifying hand without its verification (before issue 17).
CREATE OR REPLACE FUNCTION link.jackpot_qualify(p_pool text, p_hand text, p_key uuid, p_seat int,
                                                p_value bigint, p_hand_name text, p_cards text,
                                                p_player text) RETURNS jsonb
LANGUAGE sql SECURITY DEFINER SET search_path = link, pg_catalog, pg_temp AS $$
  SELECT link.jackpot_qualify(p_pool, p_hand, p_key, p_seat, p_value, p_hand_name, p_cards, p_player, NULL::jsonb)
$$;

-- The table's own count and digest, compared with the pool's (5321.18(c)):
-- the progressive is playable again only when they agree.
CREATE OR REPLACE FUNCTION link.report_reconcile(p_pool text, p_count bigint, p_digest text) RETURNS jsonb
LANGUAGE plpgsql SECURITY DEFINER SET search_path = link, pg_catalog, pg_temp AS $$
DECLARE p link.pools; t text; d record; ok boolean;
BEGIN
  SELECT * INTO p FROM link.pools WHERE name = p_pool;
  IF NOT FOUND THEN PERFORM link._refuse('LK010', format('no pool named %L', p_pool)); END IF;
  t := link._caller(p);
  SELECT * INTO d FROM link._digest(p.pool_id, t);
  ok := d.n = p_count AND d.digest = p_digest;
  UPDATE link.pool_tables SET reported_count = p_count, reported_digest = p_digest, reported_at = now(),
         agreed = ok, last_seen = now()
    WHERE pool_id = p.pool_id AND table_name = t;
  RETURN jsonb_build_object('agreed', ok, 'pool_count', d.n, 'pool_digest', d.digest);
END $$;

CREATE OR REPLACE FUNCTION link.table_records(p_pool text)
RETURNS TABLE (kind text, round_id text, key uuid, amount bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = link, pg_catalog, pg_temp AS $$
DECLARE p link.pools; t text;
BEGIN
  SELECT * INTO p FROM link.pools WHERE name = p_pool;
  IF NOT FOUND THEN PERFORM link._refuse('LK010', format('no pool named %L', p_pool)); END IF;
  t := link._caller(p);
  RETURN QUERY SELECT * FROM link._records(p.pool_id, t);
END $$;

-- --------------------------------------------------------------------------
-- Admin functions (granted to link_admin); each change journaled with who
-- --------------------------------------------------------------------------

CREATE OR REPLACE FUNCTION link._check_who(p_who text) RETURNS text
LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
  IF p_who IS NULL OR length(btrim(p_who)) = 0 OR length(p_who) > 100 THEN
    PERFORM link._refuse('LK005', 'who: the name of the person making the change is required (5321.18(b)(4))');
  END IF;
  RETURN btrim(p_who);
END $$;

CREATE OR REPLACE FUNCTION link.create_pool(p_name text, p_kind text, p_params jsonb, p_seed bigint,
                                            p_who text) RETURNS jsonb
LANGUAGE plpgsql SECURITY DEFINER SET search_path = link, pg_catalog, pg_temp AS $$
DECLARE v_who text; v_id int;
BEGIN
  v_who := link._check_who(p_who);
  IF p_name IS NULL OR p_name !~ '^[a-z0-9][a-z0-9_.-]{0,62}$' THEN
    PERFORM link._refuse('LK005', format('pool name %L: lower-case letters, digits and _.- only', p_name));
  END IF;
  IF EXISTS (SELECT 1 FROM link.pools WHERE name = p_name) THEN
    PERFORM link._refuse('LK002', format('a pool named %s exists', p_name));
  END IF;
  PERFORM link._check_params(p_kind, p_params);
  IF p_seed IS NULL OR p_seed < 0 THEN
    PERFORM link._refuse('LK005', 'seed: the initial meter in cents, 0 or more (5324.37(g)(5))');
  END IF;
  IF p_kind = 'progressive' AND p_params ? 'limit' AND p_seed > (p_params ->> 'limit')::bigint THEN
    PERFORM link._refuse('LK005', format('params.limit %s: is below the initial meter %s (9 NYCRR 5320.8: a prize''s limit)',
                                         p_params ->> 'limit', p_seed));
  END IF;
  INSERT INTO link.pools (name, kind, params, meter_units, next_seq)
    VALUES (p_name, p_kind, p_params, p_seed * 10000, 2) RETURNING pool_id INTO v_id;
  INSERT INTO link.param_versions (pool_id, version, params) VALUES (v_id, 1, p_params);
  INSERT INTO link.meter_moves (pool_id, op_seq, kind, units, meter_units_after)
    VALUES (v_id, 1, 'seed', p_seed * 10000, p_seed * 10000);
  IF p_kind = 'jackpot' THEN
    INSERT INTO link.periods (pool_id, number, rollover_in_cents) VALUES (v_id, 1, p_seed);
  END IF;
  INSERT INTO link.changes (pool_id, who, what, detail)
    VALUES (v_id, v_who, 'create pool', jsonb_build_object('kind', p_kind, 'params', p_params, 'seed', p_seed));
  RETURN jsonb_build_object('pool', p_name, 'kind', p_kind, 'version', 1, 'meter_cents', p_seed);
END $$;

-- 5321.18(b)(4): the parameters of a link cannot change while any of its tables is live.
CREATE OR REPLACE FUNCTION link.set_params(p_pool text, p_params jsonb, p_who text) RETURNS jsonb
LANGUAGE plpgsql SECURITY DEFINER SET search_path = link, pg_catalog, pg_temp AS $$
DECLARE p link.pools; v_who text; live_tables text;
BEGIN
  v_who := link._check_who(p_who);
  p := link._lock_pool(p_pool, NULL);
  PERFORM link._not_retired(p);
  PERFORM link._check_params(p.kind, p_params);
  IF p.kind = 'progressive' AND link._limit_units(p_params) < p.meter_units THEN
    PERFORM link._refuse('LK005', format('params.limit %s: is below the meter %s (9 NYCRR 5320.8: the meter never passes '
                                         'its limit)', p_params ->> 'limit', p.meter_units / 10000));
  END IF;
  SELECT string_agg(table_name, ', ' ORDER BY table_name) INTO live_tables
    FROM link.pool_tables WHERE pool_id = p.pool_id AND live;
  IF live_tables IS NOT NULL THEN
    PERFORM link._refuse('LK006', format('pool %s: parameters cannot change while a table is live (9 NYCRR 5321.18(b)(4)); live: %s',
                                         p.name, live_tables));
  END IF;
  UPDATE link.pools SET params = p_params, version = version + 1 WHERE pool_id = p.pool_id;
  INSERT INTO link.param_versions (pool_id, version, params) VALUES (p.pool_id, p.version + 1, p_params);
  INSERT INTO link.changes (pool_id, who, what, detail)
    VALUES (p.pool_id, v_who, 'set parameters',
            jsonb_build_object('before', p.params, 'after', p_params, 'version', p.version + 1));
  RETURN jsonb_build_object('pool', p.name, 'version', p.version + 1);
END $$;

CREATE OR REPLACE FUNCTION link.add_table(p_pool text, p_table text, p_role name, p_who text) RETURNS jsonb
LANGUAGE plpgsql SECURITY DEFINER SET search_path = link, pg_catalog, pg_temp AS $$
DECLARE p link.pools; v_who text;
BEGIN
  v_who := link._check_who(p_who);
  p := link._lock_pool(p_pool, NULL);
  PERFORM link._not_retired(p);
  IF p_table IS NULL OR p_table !~ '^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$' THEN
    PERFORM link._refuse('LK005', format('table %L: letters, digits and _.- only', p_table));
  END IF;
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = p_role) THEN
    PERFORM link._refuse('LK005', format('role %s does not exist', p_role));
  END IF;
  IF NOT pg_has_role(p_role, 'link_table', 'MEMBER') OR pg_has_role(p_role, 'link_admin', 'MEMBER')
     OR (SELECT rolsuper FROM pg_roles WHERE rolname = p_role) THEN
    PERFORM link._refuse('LK005', format('role %s must be a member of link_table and of nothing more powerful', p_role));
  END IF;
  IF EXISTS (SELECT 1 FROM link.pool_tables WHERE pool_id = p.pool_id AND (table_name = p_table OR role_name = p_role)) THEN
    PERFORM link._refuse('LK002', format('pool %s already has table %s or role %s', p.name, p_table, p_role));
  END IF;
  INSERT INTO link.pool_tables (pool_id, table_name, role_name) VALUES (p.pool_id, p_table, p_role);
  INSERT INTO link.changes (pool_id, who, what, detail)
    VALUES (p.pool_id, v_who, 'add table', jsonb_build_object('table', p_table, 'role', p_role));
  RETURN jsonb_build_object('pool', p.name, 'table', p_table, 'role', p_role);
END $$;

CREATE OR REPLACE FUNCTION link.remove_table(p_pool text, p_table text, p_who text) RETURNS jsonb
LANGUAGE plpgsql SECURITY DEFINER SET search_path = link, pg_catalog, pg_temp AS $$
DECLARE p link.pools; v_who text; pt link.pool_tables;
BEGIN
  v_who := link._check_who(p_who);
  p := link._lock_pool(p_pool, NULL);
  SELECT * INTO pt FROM link.pool_tables WHERE pool_id = p.pool_id AND table_name = p_table;
  IF NOT FOUND THEN PERFORM link._refuse('LK005', format('pool %s has no table %s', p.name, p_table)); END IF;
  IF pt.live THEN
    PERFORM link._refuse('LK006', format('table %s is live; close it first', p_table));
  END IF;
  DELETE FROM link.pool_tables WHERE pool_id = p.pool_id AND table_name = p_table;
  INSERT INTO link.changes (pool_id, who, what, detail)
    VALUES (p.pool_id, v_who, 'remove table', jsonb_build_object('table', p_table, 'role', pt.role_name));
  RETURN jsonb_build_object('pool', p.name, 'table', p_table);
END $$;

-- A table that went dark without closing (a box replaced) is closed by a person.
CREATE OR REPLACE FUNCTION link.force_close(p_pool text, p_table text, p_who text, p_reason text) RETURNS jsonb
LANGUAGE plpgsql SECURITY DEFINER SET search_path = link, pg_catalog, pg_temp AS $$
DECLARE p link.pools; v_who text;
BEGIN
  v_who := link._check_who(p_who);
  IF p_reason IS NULL OR length(btrim(p_reason)) = 0 THEN
    PERFORM link._refuse('LK005', 'reason: closing another table needs the reason');
  END IF;
  p := link._lock_pool(p_pool, NULL);
  UPDATE link.pool_tables SET live = false, live_since = NULL WHERE pool_id = p.pool_id AND table_name = p_table;
  IF NOT FOUND THEN PERFORM link._refuse('LK005', format('pool %s has no table %s', p.name, p_table)); END IF;
  INSERT INTO link.changes (pool_id, who, what, detail)
    VALUES (p.pool_id, v_who, 'force close table', jsonb_build_object('table', p_table, 'reason', p_reason));
  RETURN jsonb_build_object('pool', p.name, 'table', p_table, 'live', false);
END $$;

-- The end of a qualifying period (5324.42(r)(5)-(7)): the pool is announced and
-- paid to the best hand (equal hands share, odd cents to the first recorded), or
-- rolls over into the next period, which opens at once.
CREATE OR REPLACE FUNCTION link.close_period(p_pool text, p_who text) RETURNS jsonb
LANGUAGE plpgsql SECURITY DEFINER SET search_path = link, pg_catalog, pg_temp AS $$
DECLARE
  p link.pools; v_who text; per link.periods; best bigint; total bigint; n int; i int := 0;
  q record; amt bigint; v_seq bigint; winners jsonb := '[]'; contributed bigint; stale text;
BEGIN
  v_who := link._check_who(p_who);
  p := link._lock_pool(p_pool, 'jackpot');
  -- A live table the pool has not heard from lately (or whose records disagree) may hold
  -- contributions and qualifying hands of this period in its outbox (5321.18(c)): they
  -- would land in the next period. Close the period when it is back, or close the table.
  SELECT string_agg(format('%s (last seen %s%s)', table_name, coalesce(last_seen::text, 'never'),
                           CASE WHEN agreed IS FALSE THEN ', records disagree' ELSE '' END),
                    ', ' ORDER BY table_name) INTO stale
    FROM link.pool_tables WHERE pool_id = p.pool_id AND live
     AND (last_seen IS NULL OR last_seen < now() - interval '30 seconds' OR agreed IS FALSE);
  IF stale IS NOT NULL THEN
    PERFORM link._refuse('LK006', format('pool %s: a live table may still hold hands of this period in its '
      'outbox (5321.18(c)): %s; close the period when it is back and agrees, or close that table first',
      p.name, stale));
  END IF;
  SELECT * INTO per FROM link.periods WHERE pool_id = p.pool_id AND status = 'open';
  total := p.meter_units / 10000;
  SELECT coalesce(sum(amount_cents), 0) INTO contributed FROM link.jackpot_contributions
    WHERE pool_id = p.pool_id AND period = per.number;
  SELECT max(value) INTO best FROM link.qualifying_hands WHERE pool_id = p.pool_id AND period = per.number;
  IF best IS NOT NULL AND total > 0 THEN
    SELECT count(*) INTO n FROM link.qualifying_hands
      WHERE pool_id = p.pool_id AND period = per.number AND value = best;
    FOR q IN SELECT * FROM link.qualifying_hands
               WHERE pool_id = p.pool_id AND period = per.number AND value = best ORDER BY seq LOOP
      amt := total / n + CASE WHEN i < total % n THEN 1 ELSE 0 END;
      i := i + 1;
      v_seq := link._next_seq(p.pool_id);
      PERFORM link._move(p, v_seq, 'jackpot-award', -amt * 10000);
      INSERT INTO link.jackpot_awards (pool_id, seq, period, qualifying_seq, table_name, hand_id, seat, player,
                                       amount_cents, shared_by)
        VALUES (p.pool_id, v_seq, per.number, q.seq, q.table_name, q.hand_id, q.seat, q.player, amt, n);
      winners := winners || jsonb_build_object('table', q.table_name, 'hand_id', q.hand_id, 'seat', q.seat,
                                               'player', q.player, 'hand', q.hand, 'cards', q.cards,
                                               'amount_cents', amt);
    END LOOP;
    UPDATE link.periods SET status = 'paid', closed_at = now(), total_cents = total, closed_by = v_who,
           closed_role = session_user WHERE pool_id = p.pool_id AND number = per.number;
  ELSE
    UPDATE link.periods SET status = 'rolled', closed_at = now(), total_cents = total, closed_by = v_who,
           closed_role = session_user WHERE pool_id = p.pool_id AND number = per.number;
  END IF;
  INSERT INTO link.periods (pool_id, number, rollover_in_cents)
    VALUES (p.pool_id, per.number + 1, (SELECT meter_units / 10000 FROM link.pools WHERE pool_id = p.pool_id));
  INSERT INTO link.changes (pool_id, who, what, detail)
    VALUES (p.pool_id, v_who, 'close period',
            jsonb_build_object('period', per.number, 'total_cents', total, 'winners', winners));
  PERFORM pg_notify('link_' || p.name, jsonb_build_object('event', 'period closed', 'period', per.number,
                                                          'total_cents', total)::text);
  RETURN jsonb_build_object('pool', p.name, 'period', per.number, 'total_cents', total,
                            'rollover_in_cents', per.rollover_in_cents, 'contributions_cents', contributed,
                            'best_value', best, 'winners', winners,
                            'rolled_over', jsonb_array_length(winners) = 0, 'next_period', per.number + 1);
END $$;

-- The pool's books: meter = seeds + contributions - awards, to the unit, and the
-- sum of the meter's moves; and each table's records against its last report.
CREATE OR REPLACE FUNCTION link.check_pool(p_pool text) RETURNS jsonb
LANGUAGE plpgsql SECURITY DEFINER SET search_path = link, pg_catalog, pg_temp AS $$
DECLARE
  p link.pools; seeds bigint; contrib bigint; awarded bigint; moves bigint; tables jsonb;
  claim_problems jsonb := '[]'; refusals jsonb := '[]'; moved bigint; overflow_moves bigint;
BEGIN
  SELECT * INTO p FROM link.pools WHERE name = p_pool FOR SHARE;
  IF NOT FOUND THEN PERFORM link._refuse('LK010', format('no pool named %L', p_pool)); END IF;
  SELECT coalesce(sum(units), 0) INTO seeds FROM link.meter_moves
    WHERE pool_id = p.pool_id AND kind IN ('seed', 'reseed');
  SELECT coalesce(sum(units), 0) INTO moves FROM link.meter_moves WHERE pool_id = p.pool_id;
  -- the overflow's moves and a retirement's (issue 29): between the meter and the overflow, or out of
  -- the pool (retired) and into it (a retired pool's amount)
  SELECT coalesce(sum(units) FILTER (WHERE kind IN ('to-overflow', 'from-overflow', 'retire', 'transfer-in')), 0),
         coalesce(sum(overflow_units), 0)
    INTO moved, overflow_moves FROM link.meter_moves WHERE pool_id = p.pool_id;
  IF p.kind = 'progressive' THEN
    SELECT coalesce(sum(units), 0) INTO contrib FROM link.contributions WHERE pool_id = p.pool_id
      AND voided_by IS NULL;
    -- every claim held against its contribution (issue 16): a claim without one, or long after
    -- it, or an award settled without the journal entry of its validation, is named
    SELECT coalesce(jsonb_agg(x.problem ORDER BY x.seq), '[]'::jsonb) INTO claim_problems FROM (
      SELECT cl.committed_at AS seq, format('claim of table %s round %s: %s', cl.table_name, cl.round_id,
               CASE WHEN c.key IS NULL THEN 'the pool holds no contribution of the round from that table'
                    ELSE format('made %s after the round''s contribution (the bound is %s)',
                                cl.committed_at - c.committed_at, link._claim_window()) END) AS problem
        FROM link.claims cl LEFT JOIN link.contributions c
          ON c.pool_id = cl.pool_id AND c.table_name = cl.table_name AND c.round_id = cl.round_id
             AND c.voided_by IS NULL
       WHERE cl.pool_id = p.pool_id AND cl.voided_by IS NULL
         AND (c.key IS NULL OR cl.committed_at > c.committed_at + link._claim_window())
      UNION ALL
      -- a claim for a round the table had left (issue 26): made after its close, or after the
      -- table's next contribution (a pool's claims from before the round was bound)
      SELECT cl.committed_at, format('claim of table %s round %s: %s', cl.table_name, cl.round_id,
               CASE WHEN c.closed_at IS NOT NULL AND cl.committed_at > c.closed_at
                    THEN format('made after the round was closed with the pool (%s)', c.closed_at)
                    ELSE format('made after the table''s next contribution (round %s at %s): a claim is for the '
                                'round in progress', nx.round_id, nx.committed_at) END)
        FROM link.claims cl JOIN link.contributions c
          ON c.pool_id = cl.pool_id AND c.table_name = cl.table_name AND c.round_id = cl.round_id
             AND c.voided_by IS NULL
        LEFT JOIN LATERAL (SELECT n.round_id, n.committed_at FROM link.contributions n
                            WHERE n.pool_id = c.pool_id AND n.table_name = c.table_name AND n.seq > c.seq
                              AND n.voided_by IS NULL
                              AND n.seq < (SELECT min(a.seq) FROM link.awards a WHERE a.claim_key = cl.key)
                            ORDER BY n.seq LIMIT 1) nx ON true
       WHERE cl.pool_id = p.pool_id AND cl.voided_by IS NULL
         AND ((c.closed_at IS NOT NULL AND cl.committed_at > c.closed_at) OR nx.round_id IS NOT NULL)
      UNION ALL
      SELECT a.settled_at, format('award of table %s round %s seat %s: %s by %s without the journal entry of the '
                                  'validation', a.table_name, a.round_id, a.seat, a.status, a.settled_by)
        FROM link.awards a JOIN link.claims cl ON cl.key = a.claim_key
       WHERE a.pool_id = p.pool_id AND a.settled_key IS NOT NULL AND a.validation IS NULL
         AND cl.voided_by IS NULL) x;
    SELECT coalesce(sum(amount_cents), 0) * 10000 INTO awarded FROM link.awards
      WHERE pool_id = p.pool_id AND from_meter AND status <> 'voided';
    -- every claim the pool refused (issue 26), as it recorded it
    SELECT coalesce(jsonb_agg(jsonb_build_object('table', r.table_name, 'kind', r.kind, 'round', r.round_id,
             'key', r.key, 'code', r.code, 'reason', r.reason, 'db_role', r.db_role, 'at', r.at)
             ORDER BY r.refusal_id), '[]'::jsonb)
      INTO refusals FROM link.refusals r WHERE r.pool_id = p.pool_id;
  ELSE
    SELECT coalesce(sum(amount_cents), 0) * 10000 INTO contrib FROM link.jackpot_contributions
      WHERE pool_id = p.pool_id;
    SELECT coalesce(sum(amount_cents), 0) * 10000 INTO awarded FROM link.jackpot_awards
      WHERE pool_id = p.pool_id;
  END IF;
  SELECT coalesce(jsonb_agg(jsonb_build_object(
           'table', pt.table_name, 'role', pt.role_name, 'live', pt.live, 'last_seen', pt.last_seen,
           'count', d.n, 'digest', d.digest, 'reported_count', pt.reported_count,
           'reported_digest', pt.reported_digest, 'reported_at', pt.reported_at,
           'agreed', pt.agreed)  -- as found at the table's last reconcile (reported_at)
           ORDER BY pt.table_name), '[]'::jsonb)
    INTO tables
    FROM link.pool_tables pt CROSS JOIN LATERAL link._digest(pt.pool_id, pt.table_name) d
    WHERE pt.pool_id = p.pool_id;
  RETURN jsonb_build_object(
    'pool', p.name, 'kind', p.kind, 'meter_units', p.meter_units, 'seed_units', seeds,
    'contribution_units', contrib, 'award_units', awarded, 'moves_units', moves,
    'overflow_units', p.overflow_units, 'overflow_moved_units', moved, 'retired', p.retired,
    'balanced', p.meter_units = seeds + contrib - awarded + moved AND p.meter_units = moves
                AND p.overflow_units = overflow_moves,
    'claim_problems', claim_problems, 'refusals', refusals, 'tables', tables);
END $$;

-- A difference between a table's journal and the pool, resolved by two supervisors
-- (`tablectl link reconcile`, issue 16): `void` takes a stray operation out of the
-- table's records and takes its money back (a contribution leaves the meter; a claim's
-- pending awards are voided, a meter award returning to the meter); `record` keeps the
-- pool's operation as it is, the table recording it as its own. Either is journaled
-- in link.changes with both names, and the table journals it too.
CREATE OR REPLACE FUNCTION link.reconcile_decision(p_pool text, p_table text, p_key uuid, p_decision text,
                                                   p_first text, p_second text, p_reason text) RETURNS jsonb
LANGUAGE plpgsql SECURITY DEFINER SET search_path = link, pg_catalog, pg_temp AS $$
DECLARE
  p link.pools; v_first text; v_second text; c link.contributions; cl link.claims; a link.awards;
  v_seq bigint; what text; round text; signed jsonb;
BEGIN
  v_first := link._check_who(p_first);
  v_second := link._check_who(p_second);
  IF v_first = v_second THEN
    PERFORM link._refuse('LK005', 'a decision is signed by two different supervisors');
  END IF;
  IF p_reason IS NULL OR length(btrim(p_reason)) = 0 THEN
    PERFORM link._refuse('LK005', 'reason: a decision needs the reason');
  END IF;
  IF p_decision NOT IN ('void', 'record') THEN
    PERFORM link._refuse('LK005', format('decision %L: void or record', p_decision));
  END IF;
  p := link._lock_pool(p_pool, NULL);
  signed := jsonb_build_object('decision', p_decision, 'supervisors', jsonb_build_array(v_first, v_second),
                               'reason', p_reason, 'at', clock_timestamp());
  SELECT * INTO c FROM link.contributions WHERE pool_id = p.pool_id AND table_name = p_table AND key = p_key;
  IF FOUND THEN
    what := 'contribution'; round := c.round_id;
    IF c.voided_by IS NOT NULL THEN PERFORM link._refuse('LK002', 'that contribution is already voided'); END IF;
    IF p_decision = 'void' THEN
      IF EXISTS (SELECT 1 FROM link.claims WHERE pool_id = p.pool_id AND table_name = p_table
                 AND round_id = c.round_id AND voided_by IS NULL) THEN
        PERFORM link._refuse('LK006', format('round %s has a claim: void the claim first', c.round_id));
      END IF;
      IF p.meter_units < c.units THEN
        PERFORM link._refuse('LK006', format('the meter (%s units) is below the contribution (%s units): it was '
                                             'paid out; record it instead', p.meter_units, c.units));
      END IF;
      v_seq := link._next_seq(p.pool_id);
      PERFORM link._move(p, v_seq, 'void-contribution', -c.units);
      signed := signed || jsonb_build_object('seq', v_seq);
      UPDATE link.contributions SET voided_by = signed WHERE pool_id = p.pool_id AND seq = c.seq;
    END IF;
  ELSE
    SELECT * INTO cl FROM link.claims WHERE pool_id = p.pool_id AND table_name = p_table AND key = p_key;
    IF NOT FOUND THEN
      PERFORM link._refuse('LK008', format('table %s has no contribution or claim with key %s in pool %s',
                                           p_table, p_key, p.name));
    END IF;
    what := 'claim'; round := cl.round_id;
    IF cl.voided_by IS NOT NULL THEN PERFORM link._refuse('LK002', 'that claim is already voided'); END IF;
    IF p_decision = 'void' THEN
      IF EXISTS (SELECT 1 FROM link.awards WHERE claim_key = cl.key AND status <> 'pending') THEN
        PERFORM link._refuse('LK006', 'an award of that claim is settled; record it instead');
      END IF;
      FOR a IN SELECT * FROM link.awards WHERE claim_key = cl.key ORDER BY seq LOOP
        v_seq := link._next_seq(p.pool_id);
        IF a.from_meter THEN
          PERFORM link._move_limited(p, v_seq, 'void-return', a.amount_cents * 10000,
                                     (SELECT v.params FROM link.param_versions v
                                       WHERE v.pool_id = p.pool_id AND v.version = cl.version));
        END IF;
        UPDATE link.awards SET status = 'voided', settled_seq = v_seq, settled_at = now(),
               settled_by = v_first || ' and ' || v_second, settled_reason = p_reason
          WHERE pool_id = a.pool_id AND seq = a.seq;
      END LOOP;
      UPDATE link.claims SET voided_by = signed WHERE key = cl.key;
    END IF;
  END IF;
  INSERT INTO link.changes (pool_id, who, what, detail)
    VALUES (p.pool_id, v_first || ' and ' || v_second, 'reconcile: ' || p_decision,
            jsonb_build_object('table', p_table, 'kind', what, 'round', round, 'key', p_key) || signed);
  PERFORM pg_notify('link_' || p.name, jsonb_build_object('event', 'reconciled', 'table', p_table)::text);
  RETURN jsonb_build_object('pool', p.name, 'table', p_table, 'kind', what, 'round', round, 'key', p_key)
         || signed;
END $$;

-- A pool retired (issue 29 item 7; decommissioning, UKGC's transfer of a jackpot): its amount, meter and
-- overflow, moves to another progressive pool (into its meter up to its limit, the rest into its overflow)
-- or to a liability the casino records (the text says where it is held), signed by two different
-- supervisors, journaled in link.changes of both pools. Refused while an award of the pool is pending (it
-- would have nowhere to return to) or into a retired pool. The pool's tables are refused from then on
-- (LK011), so they stop offering the wager until they are assigned a pool; each table journals that.
CREATE OR REPLACE FUNCTION link.retire_pool(p_pool text, p_to text, p_liability text, p_first text,
                                            p_second text, p_reason text) RETURNS jsonb
LANGUAGE plpgsql SECURITY DEFINER SET search_path = link, pg_catalog, pg_temp AS $$
DECLARE
  p link.pools; q link.pools; v_first text; v_second text; v_seq bigint; v_qseq bigint; meter bigint;
  overflow bigint; lim bigint; to_meter bigint; to_overflow bigint; signed jsonb; tables jsonb; playing text;
BEGIN
  v_first := link._check_who(p_first);
  v_second := link._check_who(p_second);
  IF v_first = v_second THEN
    PERFORM link._refuse('LK005', 'a pool is retired by two different supervisors');
  END IF;
  IF p_reason IS NULL OR length(btrim(p_reason)) = 0 THEN
    PERFORM link._refuse('LK005', 'reason: retiring a pool needs the reason');
  END IF;
  IF (p_to IS NULL) = (p_liability IS NULL OR length(btrim(p_liability)) = 0) THEN
    PERFORM link._refuse('LK005', 'the amount goes to another pool (--to) or to a recorded liability (--liability), one of them');
  END IF;
  IF p_to = p_pool THEN PERFORM link._refuse('LK005', 'a pool is not retired into itself'); END IF;
  -- both rows in name order: two retirements at once never wait on each other in a circle
  IF p_to IS NOT NULL AND p_to < p_pool THEN q := link._lock_pool(p_to, 'progressive'); END IF;
  p := link._lock_pool(p_pool, 'progressive');
  IF p_to IS NOT NULL AND p_to > p_pool THEN q := link._lock_pool(p_to, 'progressive'); END IF;
  PERFORM link._not_retired(p);
  IF p_to IS NOT NULL THEN
    IF q.retired IS NOT NULL THEN
      PERFORM link._refuse('LK011', format('pool %s is retired: it takes no amount', q.name));
    END IF;
  END IF;
  IF EXISTS (SELECT 1 FROM link.awards WHERE pool_id = p.pool_id AND status = 'pending') THEN
    PERFORM link._refuse('LK006', format('pool %s has awards pending validation: settle them first', p.name));
  END IF;
  -- a round in progress (its table's latest contribution, not closed, within the claim's bound) could
  -- still have a hit to claim: its table finishes it first
  SELECT string_agg(DISTINCT c.table_name || ' round ' || c.round_id, ', ') INTO playing
    FROM link.contributions c
   WHERE c.pool_id = p.pool_id AND c.voided_by IS NULL AND c.closed_at IS NULL
     AND c.committed_at > clock_timestamp() - link._claim_window()
     AND c.seq = (SELECT max(l.seq) FROM link.contributions l WHERE l.pool_id = c.pool_id
                    AND l.table_name = c.table_name AND l.voided_by IS NULL);
  IF playing IS NOT NULL THEN
    PERFORM link._refuse('LK006', format('pool %s has rounds in progress (%s): their tables finish them first',
                                         p.name, playing));
  END IF;
  meter := p.meter_units; overflow := p.overflow_units;
  SELECT coalesce(jsonb_agg(table_name ORDER BY table_name), '[]'::jsonb) INTO tables
    FROM link.pool_tables WHERE pool_id = p.pool_id;
  signed := jsonb_build_object('supervisors', jsonb_build_array(v_first, v_second), 'reason', p_reason,
                               'at', clock_timestamp(), 'meter_units', meter, 'overflow_units', overflow,
                               'to', p_to, 'liability', nullif(btrim(coalesce(p_liability, '')), ''),
                               'tables', tables);
  v_seq := link._next_seq(p.pool_id);
  UPDATE link.pools SET meter_units = 0, overflow_units = 0, retired = signed WHERE pool_id = p.pool_id;
  UPDATE link.pool_tables SET live = false, live_since = NULL WHERE pool_id = p.pool_id;
  INSERT INTO link.meter_moves (pool_id, op_seq, kind, units, meter_units_after, overflow_units)
    VALUES (p.pool_id, v_seq, 'retire', -meter, 0, -overflow);
  IF p_to IS NOT NULL THEN
    v_qseq := link._next_seq(q.pool_id);
    lim := link._limit_units(q.params);
    to_meter := CASE WHEN lim IS NULL THEN meter + overflow
                     ELSE least(meter + overflow, greatest(0, lim - q.meter_units)) END;
    to_overflow := meter + overflow - to_meter;
    UPDATE link.pools SET meter_units = meter_units + to_meter, overflow_units = overflow_units + to_overflow
      WHERE pool_id = q.pool_id;
    INSERT INTO link.meter_moves (pool_id, op_seq, kind, units, meter_units_after, overflow_units)
      VALUES (q.pool_id, v_qseq, 'transfer-in', to_meter,
              (SELECT meter_units FROM link.pools WHERE pool_id = q.pool_id), to_overflow);
    signed := signed || jsonb_build_object('to_meter_units', to_meter, 'to_overflow_units', to_overflow);
    UPDATE link.pools SET retired = signed WHERE pool_id = p.pool_id;
    INSERT INTO link.changes (pool_id, who, what, detail)
      VALUES (q.pool_id, v_first || ' and ' || v_second, 'amount of a retired pool',
              jsonb_build_object('from', p.name, 'seq', v_qseq) || signed);
  END IF;
  INSERT INTO link.changes (pool_id, who, what, detail)
    VALUES (p.pool_id, v_first || ' and ' || v_second, 'retire pool', jsonb_build_object('seq', v_seq) || signed);
  PERFORM pg_notify('link_' || p.name, jsonb_build_object('event', 'retired', 'pool', p.name)::text);
  RETURN jsonb_build_object('pool', p.name) || signed;
END $$;

CREATE OR REPLACE FUNCTION link.table_digest(p_pool text, p_table text, OUT n bigint, OUT digest text)
LANGUAGE sql SECURITY DEFINER SET search_path = link, pg_catalog, pg_temp AS $$
  SELECT d.n, d.digest FROM link.pools p CROSS JOIN LATERAL link._digest(p.pool_id, p_table) d
    WHERE p.name = p_pool
$$;

CREATE OR REPLACE FUNCTION link.admin_table_records(p_pool text, p_table text)
RETURNS TABLE (kind text, round_id text, key uuid, amount bigint)
LANGUAGE sql SECURITY DEFINER SET search_path = link, pg_catalog, pg_temp AS $$
  SELECT r.* FROM link.pools p CROSS JOIN LATERAL link._records(p.pool_id, p_table) r WHERE p.name = p_pool
$$;

-- A table's login role gets statement, lock and idle-in-transaction timeouts (issue 16),
-- so a session of its own cannot keep what it took. Run with the caller's rights (it
-- needs CREATEROLE): `tablectl link init` for every table role, `table add` for a new one.
-- A role may SET them otherwise in its own session; the pool's functions then cut a
-- session holding the meter row past link._hold_bound_ms() off (link._lock_meter).
CREATE OR REPLACE FUNCTION link.limit_table_role(p_role name) RETURNS void
LANGUAGE plpgsql SECURITY INVOKER SET search_path = link, pg_catalog, pg_temp AS $$
BEGIN
  EXECUTE format('ALTER ROLE %I SET statement_timeout = %L', p_role, '5s');
  EXECUTE format('ALTER ROLE %I SET lock_timeout = %L', p_role, '2s');
  EXECUTE format('ALTER ROLE %I SET idle_in_transaction_session_timeout = %L', p_role, '1s');
END $$;

-- --------------------------------------------------------------------------
-- Journal anchors (issue 15, controller/journal/anchor.py): each table's journal head,
-- MACed with the table's own key, written at every round's close and read back
-- at power-up. One row per table role; the database keeps it away from the
-- table's data directory (and its disk).
-- --------------------------------------------------------------------------

CREATE TABLE IF NOT EXISTS link.journal_anchors (
  role_name  name PRIMARY KEY,
  journal_id text NOT NULL CHECK (journal_id ~ '^[0-9a-f]{32}$'),
  seq        bigint NOT NULL CHECK (seq > 0),
  hash       bytea NOT NULL CHECK (length(hash) = 32),
  mac        bytea NOT NULL CHECK (length(mac) = 32),
  at         timestamptz NOT NULL DEFAULT now()
);

CREATE OR REPLACE FUNCTION link.anchor_write(p_journal text, p_seq bigint, p_hash bytea, p_mac bytea)
RETURNS void
LANGUAGE sql SECURITY DEFINER SET search_path = link, pg_catalog, pg_temp AS $$
  INSERT INTO link.journal_anchors (role_name, journal_id, seq, hash, mac)
  VALUES (session_user, p_journal, p_seq, p_hash, p_mac)
  ON CONFLICT (role_name) DO UPDATE
    SET journal_id = EXCLUDED.journal_id, seq = EXCLUDED.seq, hash = EXCLUDED.hash,
        mac = EXCLUDED.mac, at = now()
$$;

CREATE OR REPLACE FUNCTION link.anchor_read(OUT journal_id text, OUT seq bigint, OUT hash bytea, OUT mac bytea)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = link, pg_catalog, pg_temp AS $$
  SELECT journal_id, seq, hash, mac FROM link.journal_anchors WHERE role_name = session_user
$$;

-- --------------------------------------------------------------------------
-- Privileges
-- --------------------------------------------------------------------------

REVOKE ALL ON ALL TABLES IN SCHEMA link FROM PUBLIC;
REVOKE ALL ON ALL SEQUENCES IN SCHEMA link FROM PUBLIC;
REVOKE ALL ON ALL FUNCTIONS IN SCHEMA link FROM PUBLIC;
GRANT EXECUTE ON FUNCTION
  link.table_state(text), link.open_table(text), link.open_table(text, text), link.close_table(text),
  link.contribute(text, text, uuid, int[], int), link.claim(text, text, uuid, jsonb),
  link.close_round(text, text, uuid),
  link.settle_award(text, text, int, uuid, text, text, text, jsonb),
  link.jackpot_contribute(text, text, uuid, bigint),
  link.jackpot_qualify(text, text, uuid, int, bigint, text, text, text),
  link.jackpot_qualify(text, text, uuid, int, bigint, text, text, text, jsonb),
  link.report_reconcile(text, bigint, text), link.table_records(text), link.cut_off_holders(text),
  link.anchor_write(text, bigint, bytea, bytea), link.anchor_read()
  TO link_table;
GRANT EXECUTE ON FUNCTION
  link.create_pool(text, text, jsonb, bigint, text), link.set_params(text, jsonb, text),
  link.add_table(text, text, name, text), link.remove_table(text, text, text),
  link.force_close(text, text, text, text), link.close_period(text, text),
  link.check_pool(text), link.table_digest(text, text), link.admin_table_records(text, text),
  link.reconcile_decision(text, text, uuid, text, text, text, text), link.limit_table_role(name),
  link.retire_pool(text, text, text, text, text, text)
  TO link_admin;
GRANT SELECT ON ALL TABLES IN SCHEMA link TO link_admin;

RESET ROLE;

DO $limits$
DECLARE r record;
BEGIN
  FOR r IN SELECT m.rolname FROM pg_auth_members am JOIN pg_roles m ON m.oid = am.member
             JOIN pg_roles g ON g.oid = am.roleid WHERE g.rolname = 'link_table' LOOP
    PERFORM link.limit_table_role(r.rolname);
  END LOOP;
END
$limits$;
