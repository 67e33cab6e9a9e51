package session_test

import (
	"context"
	"strings"
	"testing"

	zpebble "github.com/zproxy/zproxy/kv/pebble"
	"github.com/zproxy/zproxy/session"
	"github.com/zproxy/zproxy/wire"
)

// TestResultColumns checks the names and types of the result columns of
// numeric, interval and time expressions against PostgreSQL 15's (its
// psql \gdesc output, recorded here): ?column?, extract, timezone,
// numeric for a cast, sum's bigint and avg's numeric ...
func TestResultColumns(t *testing.T) {
	cases := []struct {
		sql  string
		want string // name type; name type; ...
	}{
		{`SELECT 1.5, 1e3, 2 ^ 3, 2.0 ^ 3, -1.5, 1.5 + 1, 1 + 1.5::float8, 10 % 3, 9223372036854775808`,
			"?column? numeric; ?column? numeric; ?column? double precision; ?column? numeric; ?column? numeric; ?column? numeric; ?column? double precision; ?column? integer; ?column? numeric"},
		{`SELECT interval '1 hour', '1h'::interval, interval '2' hour, -interval '1 day', interval '1 day' * 2`,
			"interval interval; interval interval; interval interval hour; ?column? interval; ?column? interval"},
		{`SELECT 1.5::numeric(5,2), cast(1 as decimal), 'a'::char(2), 2.5::float8::int, 1::int2::numeric`,
			"numeric numeric(5,2); numeric numeric; bpchar character(2); int4 integer; numeric numeric"},
		{`SELECT extract(epoch from now()), date_part('year', now()), date_trunc('day', now()), date_trunc('day', localtimestamp), date_bin('1 hour', now(), now())`,
			"extract numeric; date_part double precision; date_trunc timestamp with time zone; date_trunc timestamp without time zone; date_bin timestamp with time zone"},
		{`SELECT now() AT TIME ZONE 'UTC', localtimestamp AT TIME ZONE 'UTC', current_date, current_timestamp, localtimestamp, now(), current_timestamp(2)`,
			"timezone timestamp without time zone; timezone timestamp with time zone; current_date date; current_timestamp timestamp with time zone; localtimestamp timestamp without time zone; now timestamp with time zone; current_timestamp timestamp with time zone"},
		{`SELECT current_date + 1, current_date - current_date, current_date + interval '1 day', now() - now(), localtimestamp - interval '1 day'`,
			"?column? date; ?column? integer; ?column? timestamp without time zone; ?column? interval; ?column? timestamp without time zone"},
		{`SELECT sum(x), avg(x), sum(x::int8), avg(x::float4), sum(x::float4), sum(x::numeric), avg(x * interval '1 hour'), max(x::numeric) FROM (VALUES (1)) v(x)`,
			"sum bigint; avg numeric; sum numeric; avg double precision; sum real; sum numeric; avg interval; max numeric"},
		{`SELECT round(2.5), round(2.5::float8), round(2.5, 1), trunc(2.5), ceil(2.5), floor(2.5::float8), sign(-2), abs(-2::int2), sqrt(2), sqrt(2.0), cbrt(8), exp(1), ln(2.0), log(2, 8)`,
			"round numeric; round double precision; round numeric; trunc numeric; ceil numeric; floor double precision; sign double precision; abs smallint; sqrt double precision; sqrt numeric; cbrt double precision; exp double precision; ln numeric; log numeric"},
		{`SELECT power(2, 3), pow(2.0, 3), mod(7, 2), mod(7.0, 2), div(7, 2), pi(), random(), width_bucket(1, 0, 2, 4), width_bucket(1.0, 0, 2, 4), scale(1.50)`,
			"power double precision; pow numeric; mod integer; mod numeric; div numeric; pi double precision; random double precision; width_bucket integer; width_bucket integer; scale integer"},
		{`SELECT to_char(now(), 'YYYY'), to_char(1, '9'), to_date('2024-01-01', 'YYYY-MM-DD'), to_timestamp(0), to_timestamp('2024', 'YYYY'), make_date(2024, 1, 1), make_timestamp(2024, 1, 1, 0, 0, 0), make_timestamptz(2024, 1, 1, 0, 0, 0), make_interval(days => 1)`,
			"to_char text; to_char text; to_date date; to_timestamp timestamp with time zone; to_timestamp timestamp with time zone; make_date date; make_timestamp timestamp without time zone; make_timestamptz timestamp with time zone; make_interval interval"},
		{`SELECT age(now()), age(localtimestamp, localtimestamp), justify_days(interval '1 day'), justify_hours(interval '1 day'), justify_interval(interval '1 day'), isfinite(now()), timezone('UTC', now())`,
			"age interval; age interval; justify_days interval; justify_hours interval; justify_interval interval; isfinite boolean; timezone timestamp without time zone"},
		{`SELECT time '10:00', timetz '10:00+02', '10:00'::time, current_time, localtime, current_time(2), make_time(1, 2, 3), time '10:00' + interval '1 hour', time '10:00' - time '09:00', date '2024-01-01' + time '10:00', date '2024-01-01' + timetz '10:00+02', extract(hour from time '10:00')`,
			"time time without time zone; timetz time with time zone; time time without time zone; current_time time with time zone; localtime time without time zone; current_time time with time zone; make_time time without time zone; ?column? time without time zone; ?column? interval; ?column? timestamp without time zone; ?column? timestamp with time zone; extract numeric"},
	}
	ctx := context.Background()
	store, err := zpebble.Open(t.Name(), zpebble.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	eng, err := session.New(ctx, session.Config{Store: store, AllowFullScan: true})
	if err != nil {
		t.Fatal(err)
	}
	sess, err := eng.NewSession(ctx, wire.SessionParams{User: "test"})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		stmts, err := sess.Parse(ctx, c.sql, nil)
		if err != nil {
			t.Errorf("%s: %v", c.sql, err)
			continue
		}
		_, cols, err := stmts[0].Describe(ctx)
		if err != nil {
			t.Errorf("%s: %v", c.sql, err)
			continue
		}
		var got []string
		for _, col := range cols {
			got = append(got, col.Name+" "+col.Type.String())
		}
		if g := strings.Join(got, "; "); g != c.want {
			t.Errorf("%s:\n got  %s\n want %s", c.sql, g, c.want)
		}
	}
}
