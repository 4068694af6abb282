-- webhooks[].headers values are credentials too (an API key a receiver wants, say):
-- sealed at rest like webhook secrets and auth tokens, masked wherever a request is
-- stored or echoed. This migration's work is in code (Store.cpp, sealWebhookHeaders):
-- each subscription's and delivery's config gets its headers sealed as
-- `sealedHeaders`, and the stored requests (phases.request) and the callback payloads
-- that echo them (originalRequest.params) get the header values masked. It runs with
-- secure_delete on and is followed by a WAL checkpoint, so no clear copy stays in the
-- file's free pages or in the write-ahead log.
SELECT 1;
