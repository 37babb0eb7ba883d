-- UUID v7 (RFC 9562): 48-bit Unix milliseconds, version and variant bits, the rest random, so ids sort by creation
-- time and index well. Postgres 18 has uuidv7() built in; this function gives the same on older servers.
CREATE OR REPLACE FUNCTION gsm_uuid_v7() RETURNS uuid
LANGUAGE plpgsql VOLATILE PARALLEL SAFE AS $$
DECLARE
  unix_ms bigint := floor(extract(epoch FROM clock_timestamp()) * 1000);
  bytes bytea := uuid_send(gen_random_uuid());  -- 16 random bytes (gen_random_uuid is core since Postgres 13)
BEGIN
  bytes := overlay(bytes PLACING substring(int8send(unix_ms) FROM 3 FOR 6) FROM 1 FOR 6);
  bytes := set_byte(bytes, 6, (get_byte(bytes, 6) & 15) | 112);  -- version 7
  bytes := set_byte(bytes, 8, (get_byte(bytes, 8) & 63) | 128);  -- variant 10
  RETURN encode(bytes, 'hex')::uuid;
END
$$;
