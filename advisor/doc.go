// Package advisor recommends indexes from a recorded workload: the index
// advisor behind zproxy_index_advice and `zproxy advise`.
//
// Input. Each statement of the workload (from pg_stat_statements, package
// internal/stmtstats) carries its calls and a sample of its executions'
// table reads (optimizer.TableUse: per column the values the read's
// conjuncts allowed, the columns it needed, the order and limit wanted,
// the path taken), and the writes it made. Each table has Statistics: row
// count, distinct counts, null fractions and the selectivity of a value
// set; SampleStats estimates them from a uniform sample, and the catalog's
// ANALYZE statistics can stand in for it.
//
// Cost model. A read through a path costs the items it reads plus its
// store requests: a prefix of the primary key or a btree reads the rows
// matching its bound prefix (equalities, then one range), twice when the
// index does not cover the read (the entry, then the row); a Z-order index
// reads the rows in its box times an over-cover that grows with the
// attributes the box bounds (measured: 1.3 for 2-D and 2.5 for 3-D boxes)
// and by 1.5 for each attribute of the index the read leaves unbound — the
// design rule n^((a-b)/a) that an unbound attribute dilutes the others; a
// full scan reads every row. Selectivities come from the statistics, so
// the estimates follow the data, not the code space.
//
// Candidates and choice. For each read, a btree on its equality columns
// (most often bound first) and its most selective range, and the same with
// INCLUDE of the few columns that make it covering; for reads binding two
// or more attributes with a range, a Z-order index on them (and on the
// union of two such sets), attributes most often bound first, integer
// widths narrowed to what the data needs, and laid out for the data and the
// reads (zLeads: each attribute's bits start interleaving after its data's
// unused top bits, later still by how much more loosely the reads bound it
// than the most tightly bound attribute, so the boxes the workload sends are
// about cubes of the address space; on the issue 17 workload this read 1.85×
// fewer items than the default layout and 1.4× fewer than align = 'data').
// The cost model's over-cover does not depend on the layout. The choice is greedy: each round
// adds the candidate that saves the workload the most items and requests,
// net of the items its maintenance writes per row written, among those
// that make the reads they help at least 1.8 times as cheap; at most three new
// indexes per table. Existing indexes no recorded read used, and those
// another index makes redundant, are recommended for dropping; single-shard
// tables and btree indexes led by a column that grows with each insert
// (identity, sequence, a time defaulting to now()), written by the
// workload, get a shard recommendation; a table spread over shards by its
// whole key whose reads scan a prefix of the key bound by equality gets a
// shard_columns recommendation (shardcols.go): placed by that prefix, each
// such read reads one shard instead of all. The prefix is the shortest with
// at least 8 distinct values per shard, so writes still spread.
//
// Each Recommendation names the statements it helps, the estimated items
// and requests per call before and after, the write cost, and the
// statement to run; Render prints them for people.
package advisor
