-- Lets the background purge of expired idempotency keys (`IdempotencyKeyPurger`) find them without scanning
-- the table.
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);
