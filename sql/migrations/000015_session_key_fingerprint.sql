-- Every web process must sign sessions with one key (PASETO_KEY), or a session started on one node is refused by the
-- others. Each web process records a fingerprint of its key here at start (an HMAC derived from the key, which does
-- not reveal it) and warns when the one recorded before differs. One row.
CREATE TABLE session_key_fingerprint (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  fingerprint text NOT NULL,
  recorded_at timestamptz NOT NULL DEFAULT now()
);
