-- Reach is a property of who asked (docs/security.md, "What visitors and visiting agents
-- may reach"). A site's A2W account key acts for anonymous callers, visiting agents and
-- site visitors: it no longer carries privateTargets (NetworkPolicy gives it a visitor
-- grant: the site's own hosts on the scheme and port a run started on, and the owner's
-- allowlist below).
UPDATE api_key_capabilities
   SET capabilities = json_remove(capabilities, '$.privateTargets')
 WHERE key_id IN (SELECT key_id FROM a2w_site_accounts);

-- The owner's allowlist of private hosts ("host" or "host:port") a site's visitors' work
-- may reach beside the site's own hosts; empty by default. Kept with the site, not in its
-- configuration (which the owner's AI may propose changes to).
ALTER TABLE sites ADD COLUMN private_hosts TEXT NOT NULL DEFAULT '[]';
