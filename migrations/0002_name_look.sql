-- What a name looks like: its confusable skeleton (Unicode TR39) after case folding, so "Аlice" (a Cyrillic А)
-- and "ALlCE" are seen as "alice". The server fills it for accounts made before it existed.
ALTER TABLE accounts ADD COLUMN name_look TEXT;
CREATE INDEX accounts_by_name_look ON accounts (name_look);
