-- History: the functions and triggers below are as this migration left them. Their current definitions are in
-- sql/functions/<function>.sql, applied after the migrations (docs/development.md#migrations).
-- Webhooks (docs/webhooks.md): a cluster's subscriptions to its durable events, delivered by HTTP POST.
--
-- A delivery is made by a trigger in the same transaction as the event it carries (so a committed event always has
-- its deliveries, a rolled-back one never has), then sent by the webhook deliverer of every orchestrator process,
-- which claims due deliveries with a lease: a process that dies mid-send leaves its claim to expire, and another
-- sends again (at least once). A delivery's body is built when it is sent, from the event once it has its cursor.

CREATE TABLE webhooks (
  id uuid PRIMARY KEY DEFAULT gsm_uuid_v7(),
  cluster_id uuid NOT NULL REFERENCES clusters (id) ON DELETE CASCADE,
  url text NOT NULL,
  -- Event types, or {'*'} for all.
  events text[] NOT NULL,
  format text NOT NULL CHECK (format IN ('JSON', 'DISCORD')),
  description text,
  enabled boolean NOT NULL DEFAULT true,
  disabled_reason text,
  -- Signs each delivery (HMAC-SHA256); shown to its creator once.
  secret text NOT NULL,
  -- Deliveries that ended FAILED since the last success; at WEBHOOK_DISABLE_AFTER the webhook is disabled.
  consecutive_failures integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhooks_cluster_idx ON webhooks (cluster_id) WHERE enabled;
CREATE INDEX webhooks_cluster_all_idx ON webhooks (cluster_id, created_at);

CREATE TABLE webhook_deliveries (
  id uuid PRIMARY KEY DEFAULT gsm_uuid_v7(),
  webhook_id uuid NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
  -- The event carried (ON DELETE SET NULL: retention may remove it before a disabled webhook comes back), or null for
  -- a `webhook.test` delivery, whose body is in `body`.
  event_id uuid REFERENCES events (id) ON DELETE SET NULL,
  event_type text NOT NULL,
  body jsonb,
  status text NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'SUCCEEDED', 'FAILED')),
  attempts integer NOT NULL DEFAULT 0,
  -- Attempts made before the last manual retry: the retry schedule counts from there.
  attempts_before_retry integer NOT NULL DEFAULT 0,
  last_status_code integer,
  last_error text,
  duration_ms integer,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  -- While a deliverer sends it: claims of others wait until this passes (a deliverer that died leaves it to expire).
  lease_until timestamptz,
  -- The claim's own token: an outcome is recorded only by the claim that still holds the delivery (a sender whose
  -- lease ran out, or whose delivery was retried meanwhile, records nothing).
  lease_token uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  delivered_at timestamptz
);
CREATE UNIQUE INDEX webhook_deliveries_event_key ON webhook_deliveries (webhook_id, event_id);
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (webhook_id, next_attempt_at) WHERE status = 'PENDING';
CREATE INDEX webhook_deliveries_done_idx ON webhook_deliveries (created_at) WHERE status <> 'PENDING';
CREATE INDEX webhook_deliveries_webhook_idx ON webhook_deliveries (webhook_id, created_at DESC);
CREATE INDEX webhook_deliveries_event_idx ON webhook_deliveries (event_id);

-- Each new event becomes a delivery for every enabled webhook of its cluster that subscribes to its type; the
-- deliverers are woken (one notification per transaction: Postgres folds identical ones).
CREATE FUNCTION gsm_webhook_fanout() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO webhook_deliveries (webhook_id, event_id, event_type)
  SELECT w.id, NEW.id, NEW.type FROM webhooks w
   WHERE w.cluster_id = NEW.cluster_id AND w.enabled AND (NEW.type = ANY (w.events) OR '*' = ANY (w.events))
  ON CONFLICT DO NOTHING;
  IF FOUND THEN
    PERFORM pg_notify('gsm_webhooks', 'pending');
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER events_webhook_fanout AFTER INSERT ON events FOR EACH ROW EXECUTE FUNCTION gsm_webhook_fanout();

-- A numbered event may be sent: the sequencer's announcement wakes the deliverers too.
CREATE FUNCTION gsm_webhook_wake() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('gsm_webhooks', 'numbered');
  RETURN NULL;
END
$$;
CREATE TRIGGER event_positions_webhook_wake AFTER UPDATE ON event_positions FOR EACH STATEMENT EXECUTE FUNCTION gsm_webhook_wake();
