-- A Grafana panel's relative range: now() is folded once per statement, so
-- the bound is a key range on ts.
SELECT ts, celsius FROM readings WHERE sensor_id = 7 AND ts >= now() - interval '6 hours'

-- An absolute range with text literals typed as the column.
SELECT ts, celsius FROM readings WHERE sensor_id = 7 AND ts BETWEEN '2024-01-01T00:00:00Z' AND '2024-01-02T00:00:00Z'

-- date_trunc equality becomes the day's range on ts.
SELECT ts, celsius FROM readings WHERE sensor_id = 7 AND date_trunc('day', ts) = '2024-01-01'

-- date_trunc ranges.
SELECT ts FROM readings WHERE sensor_id = 7 AND date_trunc('hour', ts) >= '2024-01-01 10:30' AND date_trunc('hour', ts) < '2024-01-01 12:00'

-- A box over the Z-order index with a relative time bound.
SELECT count(*) FROM readings WHERE lat BETWEEN 40.5 AND 40.9 AND lon BETWEEN -74.1 AND -73.7 AND ts >= now() - interval '1 day'

-- GROUP BY date_trunc over a scan ordered by ts streams.
SELECT date_trunc('hour', ts) AS hour, avg(celsius) FROM readings WHERE sensor_id = 7 AND ts >= '2024-01-01' GROUP BY 1 ORDER BY 1

-- Newest hours first with a LIMIT: the streaming aggregate reads the key
-- forward (ts is DESC in the key), and stops after 24 groups.
SELECT date_trunc('hour', ts), max(celsius) FROM readings WHERE sensor_id = 7 GROUP BY 1 ORDER BY 1 DESC LIMIT 24

-- Grafana's $__timeGroupAlias(ts, 5m): floor(extract(epoch from ts)/300)*300
-- never decreases as ts grows, so it streams too.
SELECT floor(extract(epoch from ts)/300)*300 AS "time", avg(celsius) FROM readings WHERE sensor_id = 7 AND ts BETWEEN '2024-01-01T00:00:00Z' AND '2024-01-01T06:00:00Z' GROUP BY 1 ORDER BY 1

-- Several sensors by day: sensor_id, then ts, in the key's order.
SELECT sensor_id, date_trunc('day', ts) AS day, count(*) FROM readings WHERE sensor_id IN (1, 2) GROUP BY 1, 2 ORDER BY 1, 2 DESC

-- Without a bound on sensor_id the key order is not the order of ts: a
-- hash aggregate and a sort.
SELECT date_trunc('hour', ts), count(*) FROM readings WHERE ts >= '2024-01-01' GROUP BY 1 ORDER BY 1

-- date_bin and a cast to date stream as well.
SELECT date_bin('15 minutes', ts, '2024-01-01'), count(*) FROM readings WHERE sensor_id = 7 GROUP BY 1

-- A cast to date compared with a date is the day's range.
SELECT count(*) FROM readings WHERE sensor_id = 7 AND ts::date = '2024-01-01'

-- random() is evaluated per row: never a key bound.
SELECT ts FROM readings WHERE sensor_id = 7 AND ts > '2024-01-01'::timestamp + random() * interval '1 day'

-- An instant column: the day is the session time zone's (UTC here), or
-- the zone date_trunc names.
SELECT count(*) FROM metrics WHERE host = 'a' AND date_trunc('day', at) = '2024-03-10'

SELECT count(*) FROM metrics WHERE host = 'a' AND date_trunc('day', at, 'America/New_York') = '2024-03-10 05:00:00+00'

-- Numeric values and constants in ranges.
SELECT at FROM metrics WHERE host = 'a' AND at > now() - interval '15 minutes' AND value > 99.5

-- A column read at a zone of one fixed offset (UTC, an abbreviation, a
-- POSIX offset) is the column shifted: its comparisons, truncations and
-- dates are ranges on ts, and grouping by them streams. A zone with
-- daylight saving time runs backward once a year: a residual filter, a
-- hash aggregate.
SELECT ts FROM readings WHERE sensor_id = 7 AND (ts AT TIME ZONE 'UTC') >= '2024-01-02'

SELECT ts FROM readings WHERE sensor_id = 7 AND (ts AT TIME ZONE 'EST') BETWEEN '2024-01-02' AND '2024-01-02 06:00'

SELECT count(*) FROM metrics WHERE host = 'a' AND date_trunc('day', at AT TIME ZONE '+05') = '2024-03-10'

SELECT count(*) FROM metrics WHERE host = 'a' AND (at AT TIME ZONE 'UTC')::date = '2024-03-10'

SELECT date_trunc('week', ts AT TIME ZONE 'UTC') AS week, count(*) FROM readings WHERE sensor_id = 7 GROUP BY 1 ORDER BY 1

SELECT date_trunc('week', ts AT TIME ZONE 'America/New_York') AS week, count(*) FROM readings WHERE sensor_id = 7 AND (ts AT TIME ZONE 'America/New_York') >= '2024-01-01' GROUP BY 1 ORDER BY 1

-- extract(epoch from ts) compared with seconds is a range on ts (exactly:
-- extract gives the µs over a million as a numeric).
SELECT ts FROM readings WHERE sensor_id = 7 AND extract(epoch from ts) >= 1704067200 AND extract(epoch from ts) < 1704070800.5
