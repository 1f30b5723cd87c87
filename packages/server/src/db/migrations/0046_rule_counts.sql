-- Counting rules (a run of bad reviews): a rule with min_count > 1 fires when its formula
-- held on min_count reports of a device within window_s seconds (report times), instead of
-- holding for duration_s. recent_true keeps the times (ms) of the latest reports on which
-- it held, at most min_count of them.
ALTER TABLE notify_rules
  ADD COLUMN min_count integer NOT NULL DEFAULT 1 CHECK (min_count BETWEEN 1 AND 100),
  ADD COLUMN window_s integer NOT NULL DEFAULT 0 CHECK (window_s >= 0);
ALTER TABLE notify_rule_state ADD COLUMN recent_true jsonb NOT NULL DEFAULT '[]';
