-- The console's text filter finds runs whose task or id contains the typed text
-- (TrajectoryRepository::list). As LIKE '%…%' it read every run: ~60 ms in SQLite and
-- ~100 ms to the repaint with 100,000 runs for a text that matches nothing
-- (bench/console). A trigram index answers substrings of 3 characters and more from
-- the index; shorter texts keep the LIKE scan (they match many runs, so a page fills
-- early). Kept by triggers; status and timing updates do not touch it.
CREATE VIRTUAL TABLE trajectories_search USING fts5(id, task, content='trajectories', content_rowid='rowid', tokenize='trigram');
CREATE TRIGGER trajectories_search_insert AFTER INSERT ON trajectories BEGIN INSERT INTO trajectories_search (rowid, id, task) VALUES (new.rowid, new.id, new.task); END;
CREATE TRIGGER trajectories_search_delete AFTER DELETE ON trajectories BEGIN INSERT INTO trajectories_search (trajectories_search, rowid, id, task) VALUES ('delete', old.rowid, old.id, old.task); END;
CREATE TRIGGER trajectories_search_update AFTER UPDATE OF id, task ON trajectories BEGIN INSERT INTO trajectories_search (trajectories_search, rowid, id, task) VALUES ('delete', old.rowid, old.id, old.task); INSERT INTO trajectories_search (rowid, id, task) VALUES (new.rowid, new.id, new.task); END;
INSERT INTO trajectories_search (trajectories_search) VALUES ('rebuild');
