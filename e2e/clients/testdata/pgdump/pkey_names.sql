-- Primary keys with names of their own (pg_dump writes ALTER TABLE ONLY
-- t ADD CONSTRAINT name PRIMARY KEY after the rows), one renamed, and a
-- partitioned table whose row triggers its partitions have copies of.
CREATE TABLE orders (id int NOT NULL, note text);
INSERT INTO orders VALUES (1, 'a'), (2, 'b');
ALTER TABLE orders ADD CONSTRAINT orders_custom_pk PRIMARY KEY (id);
CREATE TABLE items (order_id int, line int, CONSTRAINT items_key PRIMARY KEY (order_id, line));
INSERT INTO items VALUES (1, 1), (1, 2);
CREATE TABLE plain (id int PRIMARY KEY);
ALTER TABLE plain RENAME CONSTRAINT plain_pkey TO plain_renamed;
CREATE TABLE ev (id int, region text, v int) PARTITION BY LIST (region);
CREATE TABLE ev_eu PARTITION OF ev FOR VALUES IN ('eu');
CREATE TABLE ev_us PARTITION OF ev FOR VALUES IN ('us');
CREATE FUNCTION ev_bump() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN NEW.v := NEW.v * 10; RETURN NEW; END $$;
CREATE TRIGGER ev_bump BEFORE INSERT ON ev FOR EACH ROW EXECUTE FUNCTION ev_bump();
INSERT INTO ev VALUES (1, 'eu', 1);
