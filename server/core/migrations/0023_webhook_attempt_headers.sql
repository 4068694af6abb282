-- What each webhook attempt sent and what came back, for the console's delivery detail
-- (issue 19): the request's header lines (credential values a subscription set, and
-- Authorization, redacted; the signature kept) and the reply's header lines (the first
-- 4 KiB). The body sent is the delivery's payload, the reply's first bytes `response`.
-- Existing attempts keep their rows, with NULL in both.
ALTER TABLE webhook_attempts ADD COLUMN request_headers TEXT;
ALTER TABLE webhook_attempts ADD COLUMN response_headers TEXT;
