-- Deliveries carried the signing key itself in the legacy `x-hook-secret` header, so anyone who saw
-- one could sign the next. The header now carries "hookSecret", a value that signs nothing.
--
-- Receivers of existing subscriptions compare `x-hook-secret` with the secret they were given: that
-- value becomes their "hookSecret", so they keep working. Having been sent in every delivery, it
-- no longer signs: each existing subscription gets a new signing key (24 random bytes from two
-- gen_random_uuid() calls, built into PostgreSQL 13 and later), shown by the next rotation, and a
-- previous key of one still in its rotation overlap is dropped for the same reason.
--
-- NB: the PostgreSQL driver splits a migration at every semicolon, comments included: none here.

-- AlterTable
ALTER TABLE "Subscription" ADD COLUMN     "hookSecret" TEXT;

UPDATE "Subscription" SET
  "hookSecret" = "secret",
  "secret" = 'whsec_' || encode(decode(replace(gen_random_uuid()::text, '-', '') || left(replace(gen_random_uuid()::text, '-', ''), 16), 'hex'), 'base64'),
  "previousSecret" = NULL,
  "previousSecretEnd" = NULL;

ALTER TABLE "Subscription" ALTER COLUMN "hookSecret" SET NOT NULL;
