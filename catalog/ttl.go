package catalog

import (
	"time"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/kv"
)

// TTL is a table's row expiry: a row whose Column value plus the interval
// has passed is gone for every query at once (the optimizer filters it);
// the store removes it later (a sweeper on Pebble, DynamoDB's own TTL on
// the items' expiry attribute). A NULL in the column never expires.
type TTL struct {
	// Column names the timestamp, timestamptz or date column.
	Column string `json:"column"`
	// Interval is the lifetime as written ('30 days').
	Interval string `json:"interval"`
	// Micros is the lifetime in microseconds (a month counts 30 days, a
	// day 24 hours, as PostgreSQL's epoch of an interval does).
	Micros int64 `json:"micros"`
}

// NewTTL checks a ttl and ttl_column setting for table t.
func NewTTL(t *Table, interval, column string) (*TTL, error) {
	iv, err := sqltypes.ParseInterval(interval, sqltypes.TypeInterval)
	if err != nil {
		return nil, pgerr.New(pgerr.InvalidParameterValue, "invalid value for parameter \"ttl\": %q", interval).
			WithHint("Use an interval such as '30 days' or '12 hours'.")
	}
	micros := int64(iv.Months)*30*24*int64(time.Hour/time.Microsecond) + int64(iv.Days)*24*int64(time.Hour/time.Microsecond) + iv.Micros
	if micros <= 0 {
		return nil, pgerr.New(pgerr.InvalidParameterValue, "\"ttl\" must be a positive interval")
	}
	if column == "" {
		return nil, pgerr.New(pgerr.InvalidParameterValue, "\"ttl\" needs \"ttl_column\": the timestamp column rows expire by")
	}
	i := t.ColumnIndex(column)
	if i < 0 {
		return nil, pgerr.New(pgerr.UndefinedColumn, "column %q of relation %q does not exist", column, t.Name)
	}
	switch t.Columns[i].Type.Kind() {
	case sqltypes.KindTimestamp, sqltypes.KindTimestampTZ, sqltypes.KindDate:
	default:
		return nil, pgerr.New(pgerr.DatatypeMismatch, "\"ttl_column\" %q is of type %s; it must be a timestamp, timestamptz or date", column, t.Columns[i].Type)
	}
	return &TTL{Column: column, Interval: interval, Micros: micros}, nil
}

// Cutoff is the oldest TTL column value still alive at now, a timestamp:
// rows at or before it have expired.
func (t *TTL) Cutoff(now time.Time) int64 { return sqltypes.TimestampFromTime(now) - t.Micros }

// expiresAt returns when row expires, in Unix seconds (rounded up), and
// false when it never does.
func (t *Table) expiresAt(row []sqltypes.Value) (int64, bool) {
	if t.TTL == nil {
		return 0, false
	}
	i := t.ColumnIndex(t.TTL.Column)
	if i < 0 || row[i].IsNull() {
		return 0, false
	}
	at := row[i].I
	if at > (1<<62)-t.TTL.Micros { // infinity and far futures never expire
		return 0, false
	}
	if row[i].K == sqltypes.KindDate {
		at *= 24 * int64(time.Hour/time.Microsecond) // Unix µs
	} else {
		at += sqltypes.PGEpochMicros // a timestamp counts from 2000
	}
	at += t.TTL.Micros
	return (at + 999_999) / 1_000_000, true
}

// Expired reports whether row has expired at now: the exact negation of
// the filter the optimizer puts on reads (the TTL column is not NULL and
// not later than the cutoff).
func (t *Table) Expired(row []sqltypes.Value, now time.Time) bool {
	return t.TTL != nil && !t.alive(row, now)
}

func (t *Table) alive(row []sqltypes.Value, now time.Time) bool {
	i := t.ColumnIndex(t.TTL.Column)
	if i < 0 || row[i].IsNull() {
		return true
	}
	v := row[i].I
	cutoff := t.TTL.Cutoff(now)
	if row[i].K == sqltypes.KindDate {
		return v > sqltypes.TimestampToDate(cutoff)
	}
	return v > cutoff
}

// appendExpiry adds the item expiry attribute to a row's or index entry's
// attributes.
func (t *Table) appendExpiry(attrs []kv.Attr, row []sqltypes.Value) []kv.Attr {
	if at, ok := t.expiresAt(row); ok {
		attrs = append(attrs, kv.Attr{Name: kv.ExpiresAttr, ID: ExpiresAttrID, Kind: kv.AttrInt, I: at})
	}
	return attrs
}

// ZproxyTableOption reports whether key is one of zproxy's own table
// options (WITH (...), SET | RESET (...)), not PostgreSQL's storage
// parameters.
func ZproxyTableOption(key string) bool {
	switch key {
	case "ttl", "ttl_column", "shards", "shard_columns", "mutability":
		return true
	}
	return false
}
