package catalog

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// shardTable is (site text, sensor int DESC, ts timestamp, v float8) keyed
// by its first three columns, with an index on (v, site).
func shardTable(shards, leading int) *Table {
	t := &Table{ID: 1, Name: "r", Shards: shards, ShardColumns: leading, Columns: []Column{
		{Name: "site", Type: sqltypes.TypeText}, {Name: "sensor", Type: sqltypes.TypeInt4},
		{Name: "ts", Type: sqltypes.TypeTimestamp}, {Name: "v", Type: sqltypes.TypeFloat8}}}
	t.PrimaryKey = []KeyColumn{{Column: 0}, {Column: 1, Desc: true}, {Column: 2}}
	t.Indexes = []*Index{{ID: 2, Name: "r_v", Kind: KindBTree, Shards: shards, Columns: []KeyColumn{{Column: 3}, {Column: 0}}}}
	return t
}

func randShardRow(r *rand.Rand) []sqltypes.Value {
	sites := []string{"", "a", "a\x00b", "north", "n\x00", "\xff\xff"}
	return []sqltypes.Value{sqltypes.NewText(sites[r.IntN(len(sites))]), sqltypes.NewInt(int64(r.IntN(7) - 3)),
		sqltypes.NewTimestamp(r.Int64N(1 << 40)), sqltypes.NewFloat(float64(r.IntN(5)))}
}

// Rows sharing their shard columns share a shard, and that shard is the
// hash of the encoded columns alone; without shard columns the whole key
// is hashed, as before the option existed.
func TestRowShardFollowsTheShardColumns(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for leading := 0; leading <= 3; leading++ {
		tb := shardTable(7, leading)
		for i := 0; i < 2000; i++ {
			row := randShardRow(r)
			pk := tb.EncodePK(nil, row)
			var placed []byte
			for _, k := range tb.PrimaryKey[:leading] {
				placed = AppendKeyValue(placed, row[k.Column], k.Desc)
			}
			if leading == 0 {
				placed = pk
			}
			want := ShardOf(placed, 7)
			if got := tb.RowShard(pk); got != want {
				t.Fatalf("leading %d, row %v: shard %d, want %d", leading, row, got, want)
			}
			if got := tb.RowKey(row).Partition; string(got) != string(tb.Partition(want)) {
				t.Fatalf("RowKey partition %x, want shard %d", got, want)
			}
			if leading > 0 {
				if got := tb.ShardsFor(nil, placed, leading); !slices.Equal(got, []int{want}) {
					t.Fatalf("ShardsFor %v, want [%d]", got, want)
				}
			}
			if got := tb.ShardsFor(nil, placed, leading-1); leading > 0 && len(got) != 7 {
				t.Fatalf("ShardsFor with %d of %d columns bound: %v, want every shard", leading-1, leading, got)
			}
		}
	}
}

// Index entries with shard columns are placed by their leading index
// values (unique-keyed ones too); without, by the row's primary key.
func TestEntryShardFollowsTheIndexShardColumns(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, unique := range []bool{false, true} {
		for leading := 0; leading <= 2; leading++ {
			tb := shardTable(5, 0)
			ix := tb.Indexes[0]
			ix.ShardColumns, ix.Unique = leading, unique
			for i := 0; i < 500; i++ {
				row := randShardRow(r)
				key := tb.EntryKey(ix, row)
				var placed []byte
				for _, k := range ix.Columns[:max(leading, 1)] {
					placed = AppendKeyValue(placed, row[k.Column], k.Desc)
				}
				switch {
				case leading == 0 && unique:
					placed = AppendKeyValue(placed, row[0], false) // the whole index key
				case leading == 0:
					placed = tb.EncodePK(nil, row)
				}
				if want := IndexPartition(ix.ID, ShardOf(placed, 5)); string(key.Partition) != string(want) {
					t.Fatalf("unique %v, leading %d: partition %x, want %x", unique, leading, key.Partition, want)
				}
				if leading > 0 && tb.PrefixShard(ix, key.Sort) != ShardOf(placed, 5) {
					t.Fatalf("PrefixShard of the entry's own key disagrees with its partition")
				}
			}
		}
	}
}

func TestParseShardColumns(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"sensor_id", []string{"sensor_id"}},
		{"Sensor_ID", []string{"sensor_id"}},
		{" a , b ", []string{"a", "b"}},
		{"a,b,c", []string{"a", "b", "c"}},
		{`"Site", day`, []string{"Site", "day"}},
		{`"a,b"`, []string{"a,b"}},
		{`"say ""hi""",x`, []string{`say "hi"`, "x"}},
		{"été", []string{"été"}},
		{"a$1", []string{"a$1"}},
	} {
		got, err := ParseShardColumns(tc.in)
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("ParseShardColumns(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{"", " ", "a b", "a,", ",a", "a,,b", `"`, `""`, `"a" b`, `"a`, "1a", "a-b", "(a)"} {
		if got, err := ParseShardColumns(bad); pgerr.CodeOf(err) != pgerr.InvalidParameterValue {
			t.Errorf("ParseShardColumns(%q) = %q, %v; want 22023", bad, got, err)
		}
	}
}

func TestResolveShardColumns(t *testing.T) {
	tb := shardTable(4, 0)
	for _, tc := range []struct {
		names  []string
		shards int
		want   int
		code   string
	}{
		{[]string{"site"}, 4, 1, ""},
		{[]string{"site", "sensor"}, 4, 2, ""},
		{[]string{"site", "sensor", "ts"}, 4, 3, ""},
		{[]string{"sensor"}, 4, 0, pgerr.InvalidTableDefinition.String()},
		{[]string{"site", "ts"}, 4, 0, pgerr.InvalidTableDefinition.String()},
		{[]string{"site", "sensor", "ts", "v"}, 4, 0, pgerr.InvalidTableDefinition.String()},
		{[]string{"nope"}, 4, 0, pgerr.UndefinedColumn.String()},
		{[]string{"site", "site"}, 4, 0, pgerr.DuplicateColumn.String()},
		{[]string{"site"}, 1, 0, pgerr.InvalidParameterValue.String()},
	} {
		got, err := ResolveShardColumns(tb, tb.PrimaryKey, "primary key", tc.names, tc.shards)
		if got != tc.want || pgerr.CodeOf(err).String() != tc.code && !(tc.code == "" && err == nil) {
			t.Errorf("%v on %d shards: %d, %v; want %d, %q", tc.names, tc.shards, got, err, tc.want, tc.code)
		}
	}
}

// The reloptions text reads back as the same columns.
func TestShardOptionsRoundTrip(t *testing.T) {
	tb := shardTable(4, 2)
	tb.Columns[0].Name = `We "Site"`
	opts := tb.ShardOptions(nil)
	if len(opts) != 2 || opts[0] != "shards=4" {
		t.Fatalf("options %q", opts)
	}
	names, err := ParseShardColumns(opts[1][len("shard_columns="):])
	if err != nil || !slices.Equal(names, tb.ShardColumnNames(nil)) {
		t.Errorf("%q read back as %q, %v; want %q", opts[1], names, err, tb.ShardColumnNames(nil))
	}
	if opts := shardTable(4, 0).ShardOptions(nil); fmt.Sprint(opts) != "[shards=4]" {
		t.Errorf("without shard columns: %q", opts)
	}
}

// Any text either parses into names or fails with 22023; never a panic.
func FuzzParseShardColumns(f *testing.F) {
	for _, s := range []string{"a", "a, b", `"A""b",c`, `"`, ",", "a,,", "\x00", "é,ü"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		names, err := ParseShardColumns(s)
		if err != nil {
			if pgerr.CodeOf(err) != pgerr.InvalidParameterValue {
				t.Fatalf("%q: %v", s, err)
			}
			return
		}
		if len(names) == 0 {
			t.Fatalf("%q: no names and no error", s)
		}
		for _, n := range names {
			if n == "" {
				t.Fatalf("%q: an empty name in %q", s, names)
			}
		}
	})
}

// AppendPartition appends what Partition returns, PartitionLen bytes of
// it, whatever the table's store ID and shard.
func TestAppendPartition(t *testing.T) {
	for _, c := range []struct {
		id, dataID uint64
		shard      int
	}{
		{1, 0, 0}, {1, 0, 7}, {42, 0, 65535}, {42, 9000, 3}, {1 << 40, 0, 1}, {^uint64(0), 0, 255},
	} {
		tab := &Table{ID: c.id, DataID: c.dataID}
		want := tab.Partition(c.shard)
		if len(want) != PartitionLen {
			t.Errorf("%+v: Partition is %d bytes, PartitionLen %d", c, len(want), PartitionLen)
		}
		prefix := []byte("p")
		if got := tab.AppendPartition(prefix, c.shard); !slices.Equal(got[1:], want) || got[0] != 'p' {
			t.Errorf("%+v: AppendPartition = %x, want p + %x", c, got, want)
		}
		var room [PartitionLen]byte
		if got := tab.AppendPartition(room[:0], c.shard); !slices.Equal(got, want) {
			t.Errorf("%+v: AppendPartition into room = %x, want %x", c, got, want)
		}
	}
}
