-- The console's deliveries filtered by status, newest first, a page at a time
-- (WebhookQueue::list: status = ? ORDER BY created_at DESC, id DESC, keyset paging).
-- webhook_deliveries_due (status, next_attempt_at) found the rows but every match was
-- sorted: ~300 ms a page for "delivered" among 100,000 deliveries (bench/console). This
-- index gives them in created_at order (only equal times are sorted by id). Without id
-- in it, rows enter it in insertion order, which keeps the queue's writes cheap: with
-- id, the same index cost ~40% more SQLite time per delivery in a burst.
CREATE INDEX webhook_deliveries_by_status ON webhook_deliveries(status, created_at);
