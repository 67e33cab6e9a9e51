package catalog

import (
	"strconv"
	"strings"
	"unicode"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/zorder"
)

// Shard placement (ARCHITECTURE.md, "Store layout").
//
// An item's shard is a hash of bytes of its key: by default the whole
// encoded primary key (a row, a btree or Z-order entry) or the whole encoded
// index key (a unique entry). With shard columns (WITH (shard_columns =
// (...)), Table.ShardColumns, Index.ShardColumns) it is a hash of the
// encoding of the leading key columns only, so every item sharing those
// values lies in one shard: a read that binds them by equality reads that
// shard alone, while items with different values still spread. The count
// is part of the descriptor, so a table created before the option keeps
// hashing its whole key.

// shardPrefix returns the encoding of the first n columns of a tuple key,
// or all of key when n is 0 or key holds fewer (a key that does not decode
// is hashed whole rather than refused: placement must never fail).
func shardPrefix(key []byte, cols []KeyColumn, n int) []byte {
	if n <= 0 || n > len(cols) {
		return key
	}
	rest := key
	for _, c := range cols[:n] {
		r, err := zorder.SkipColumn(rest, c.Desc)
		if err != nil {
			return key
		}
		rest = r
	}
	return key[:len(key)-len(rest)]
}

// RowShard returns the shard of the row whose encoded primary key is pk.
func (t *Table) RowShard(pk []byte) int {
	return ShardOf(shardPrefix(pk, t.PrimaryKey, t.ShardColumns), t.Shards)
}

// entryShard returns the shard of an index entry with sort key sort whose
// row's encoded primary key is pk: a hash of its leading shard columns, else
// of the primary key (unique-keyed entries use UniqueEntryKey).
func (ix *Index) entryShard(sort, pk []byte) int {
	if ix.ShardColumns > 0 {
		return ShardOf(shardPrefix(sort, ix.Columns, ix.ShardColumns), ix.Shards)
	}
	return ShardOf(pk, ix.Shards)
}

// uniqueShard returns the shard of a unique-keyed entry (sort is the
// encoded index columns): a hash of its leading shard columns, else of all
// of them.
func (ix *Index) uniqueShard(sort []byte) int {
	return ShardOf(shardPrefix(sort, ix.Columns, ix.ShardColumns), ix.Shards)
}

// ShardPlacement says how the items of a table's rows (ix nil) or of an
// index are placed: over how many shards, and how many leading key columns
// (of Table.PrimaryKey, or of ix.Columns) decide the shard; 0 when the
// whole primary key does, so no bound prefix narrows the shards.
func (t *Table) ShardPlacement(ix *Index) (shards, leading int) {
	if ix == nil {
		return t.Shards, t.ShardColumns
	}
	return ix.Shards, ix.ShardColumns
}

// PrefixShard returns the shard holding every item of a table's rows (ix
// nil) or of ix whose sort key begins with prefix, which must encode at
// least the placement's leading columns (ShardPlacement) and only then
// identifies one shard.
func (t *Table) PrefixShard(ix *Index, prefix []byte) int {
	if ix == nil {
		return t.RowShard(prefix)
	}
	return ix.uniqueShard(prefix)
}

// ShardColumnNames returns the names of the columns of a placement's
// leading shard columns (nil when the whole key places the items).
func (t *Table) ShardColumnNames(ix *Index) []string {
	keys, n := t.PrimaryKey, t.ShardColumns
	if ix != nil {
		keys, n = ix.Columns, ix.ShardColumns
	}
	if n <= 0 || n > len(keys) {
		return nil
	}
	out := make([]string, n)
	for i, k := range keys[:n] {
		out[i] = t.Columns[k.Column].Name
	}
	return out
}

// ShardOptions returns the storage options of a placement as reloptions
// show them: "shards=N" and, with shard columns,
// "shard_columns=a,b" (PostgreSQL's name=value text, which
// CREATE ... WITH (shard_columns = 'a,b') reads back).
// RowIDShards is how many shards a table declared without a primary key
// gets unless it says otherwise: its hidden row ids grow, and shards
// spread the inserts. A table with a key gets DefaultShards.
const (
	RowIDShards   = 4
	DefaultShards = 1
)

// RowIDColumn names the hidden row id of a table without a primary key
// (with a suffix, _1, _2, ..., when a column has the name).
const RowIDColumn = "rowid"

// DefaultShardsOf is how many shards t would have if nothing had said:
// RowIDShards while its key is the hidden row id, else DefaultShards.
func (t *Table) DefaultShardsOf() int {
	if t.RowIDKeyed() {
		return RowIDShards
	}
	return DefaultShards
}

func (t *Table) ShardOptions(ix *Index) []string {
	shards, _ := t.ShardPlacement(ix)
	opts := []string{"shards=" + strconv.Itoa(shards)}
	if names := t.ShardColumnNames(ix); names != nil {
		quoted := make([]string, len(names))
		for i, n := range names {
			quoted[i] = sqltypes.QuoteIdent(n)
		}
		opts = append(opts, "shard_columns="+strings.Join(quoted, ","))
	}
	return opts
}

// ResolveShardColumns checks a shard_columns option (the column names, as
// ParseShardColumns returns them) against the key it must lead (the primary
// key, or an index's columns, keyName saying which) and returns how many
// leading columns it names.
func ResolveShardColumns(t *Table, key []KeyColumn, keyName string, names []string, shards int) (int, error) {
	if shards <= 1 {
		return 0, pgerr.New(pgerr.InvalidParameterValue, "\"shard_columns\" needs \"shards\" greater than 1").
			WithHint("Add shards = N to the WITH clause.")
	}
	seen := map[int]bool{}
	for i, name := range names {
		c := t.ColumnIndex(name)
		if c < 0 {
			return 0, pgerr.New(pgerr.UndefinedColumn, "column %q named in shard_columns does not exist", name)
		}
		if seen[c] {
			return 0, pgerr.New(pgerr.DuplicateColumn, "column %q appears twice in shard_columns", name)
		}
		seen[c] = true
		if i >= len(key) || key[i].Column != c {
			return 0, pgerr.New(pgerr.InvalidTableDefinition, "shard_columns must be a leading prefix of the %s", keyName).
				WithDetail("Column %q is not column %d of the %s.", name, i+1, keyName)
		}
	}
	return len(names), nil
}

// ParseShardColumns reads the value of a shard_columns option: identifiers
// separated by commas, as written in WITH (shard_columns = (a, b)), as a
// string ('a, b', the reloptions text) or as one bare name. Unquoted names
// fold to lower case, double-quoted ones keep their case.
func ParseShardColumns(val string) ([]string, error) {
	var names []string
	s := strings.TrimSpace(val)
	for {
		var name string
		if strings.HasPrefix(s, `"`) {
			end := -1
			for i := 1; i < len(s) && end < 0; i++ {
				switch {
				case s[i] != '"':
				case i+1 < len(s) && s[i+1] == '"':
					i++ // a doubled quote
				default:
					end = i
				}
			}
			if end <= 1 {
				return nil, badShardColumns(val)
			}
			name, s = strings.ReplaceAll(s[1:end], `""`, `"`), s[end+1:]
		} else {
			end := strings.IndexByte(s, ',')
			if end < 0 {
				end = len(s)
			}
			name, s = strings.ToLower(strings.TrimSpace(s[:end])), s[end:]
			if !plainIdent(name) {
				return nil, badShardColumns(val)
			}
		}
		names = append(names, name)
		s = strings.TrimSpace(s)
		if s == "" {
			return names, nil
		}
		if s[0] != ',' {
			return nil, badShardColumns(val)
		}
		s = strings.TrimSpace(s[1:])
	}
}

// plainIdent reports whether s is an unquoted identifier: a letter or
// underscore, then letters, digits, underscores and dollar signs.
func plainIdent(s string) bool {
	for i, c := range s {
		letter := c == '_' || unicode.IsLetter(c)
		if !letter && (i == 0 || !unicode.IsDigit(c) && c != '$') {
			return false
		}
	}
	return s != ""
}

func badShardColumns(val string) error {
	return pgerr.New(pgerr.InvalidParameterValue, "invalid value for shard_columns: %q", val).
		WithHint("List leading key columns: shard_columns = (a, b).")
}

// ShardsFor returns the shards that can hold items of a table's rows (ix
// nil) or of ix whose sort keys begin with prefix, the encoding of the first
// bound key columns: the one shard their leading shard columns hash to when
// prefix binds them all, else every shard.
func (t *Table) ShardsFor(ix *Index, prefix []byte, bound int) []int {
	shards, leading := t.ShardPlacement(ix)
	if leading > 0 && bound >= leading {
		return []int{t.PrefixShard(ix, prefix)}
	}
	all := make([]int, max(shards, 1))
	for i := range all {
		all[i] = i
	}
	return all
}
