package main

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"
	"time"

	"github.com/jackc/pgx/v5"
)

// The docs workload (-workload docs): a table of JSON documents, tag
// arrays and text bodies with gin indexes on both systems (the bodies'
// over to_tsvector('english', body)), and the containment, key, overlap
// and full-text queries an application sends a document store, each
// returning about a hundred rows.

// Document domains, sized against -docs so that each class returns about
// docTarget rows whatever the table's size.
const (
	docTarget  = 100
	docColors  = 10 // every document has a color
	docTagsPer = 3  // tags per document
	docWords   = 6  // words per body, each from a vocabulary sized for docTarget
)

const docsColumns = `id BIGINT PRIMARY KEY, attrs JSONB, tags TEXT[], body TEXT`

// docsWords is the size of the bodies' vocabulary: each word on about
// docTarget documents.
func docsWords(docs int) int { return max(docs*docWords/docTarget, 1) }

// docWord is word i of the vocabulary: letters only, so the english
// configuration keeps it one lexeme (a stem of itself).
func docWord(i int) string {
	const letters = "bcdfghjklmnpqrstvwxz"
	w := []byte{'q'}
	for i++; i > 0; i /= len(letters) {
		w = append(w, letters[i%len(letters)])
	}
	return string(w)
}

// docsDomain is the number of brands (docs/docTarget: each brand on about
// docTarget documents), of optional keys (likewise) and of tags (each on
// about docTarget documents).
func docsDomain(docs int) (brands, extras, tags int) {
	n := max(docs/docTarget, 1)
	return n, n, max(docs*docTagsPer/docTarget, 1)
}

// doc is document id, a pure function of (seed, id): a brand, a color, a
// size, nested dimensions, an optional key of its own, and tags.
func (d dataset) doc(id int64, docs int) []any {
	brands, extras, tags := docsDomain(docs)
	h := splitmix{state: d.seed ^ uint64(id)*0x9E3779B97F4A7C15 ^ 0xD0C5D0C5}
	attrs := fmt.Sprintf(`{"brand": "b%d", "color": "c%d", "size": %d, "dims": {"w": %d, "h": %d}, "x%d": true}`,
		h.next()%uint64(brands), h.next()%docColors, h.next()%5, h.next()%50, h.next()%50, h.next()%uint64(extras))
	var t []string
	for i := 0; i < docTagsPer; i++ {
		t = append(t, fmt.Sprintf("t%d", h.next()%uint64(tags)))
	}
	words := docsWords(docs)
	body := "The"
	for i := 0; i < docWords; i++ {
		body += " " + docWord(int(h.next()%uint64(words)))
	}
	return []any{id, attrs, t, body + "."}
}

// loadDocs creates and fills docs on both systems with the same multi-row
// INSERTs, then builds the gin indexes (after the load, as a bulk load
// does) and lets PostgreSQL gather statistics.
func loadDocs(ctx context.Context, cfg config, ds dataset, zconn, pconn *pgx.Conn) error {
	rows := make([][]any, cfg.docs)
	for i := range rows {
		rows[i] = ds.doc(int64(i), cfg.docs)
	}
	indexes := []string{
		"CREATE INDEX docs_attrs ON docs USING gin (attrs)",
		"CREATE INDEX docs_attrs_path ON docs USING gin (attrs jsonb_path_ops)",
		"CREATE INDEX docs_tags ON docs USING gin (tags)",
		"CREATE INDEX docs_body ON docs USING gin (to_tsvector('english', body))",
	}
	for _, sys := range []struct {
		name string
		conn *pgx.Conn
		with string
	}{{"zproxy", zconn, fmt.Sprintf(" WITH (shards = %d)", cfg.shards)}, {"PostgreSQL", pconn, ""}} {
		if err := execAll(ctx, sys.conn, "CREATE TABLE docs ("+docsColumns+")"+sys.with); err != nil {
			return fmt.Errorf("%s: %w", sys.name, err)
		}
		start := time.Now()
		if err := insertRows(ctx, sys.conn, "docs", []string{"id", "attrs", "tags", "body"}, rows, cfg.batch); err != nil {
			return fmt.Errorf("%s: %w", sys.name, err)
		}
		loaded := time.Since(start)
		start = time.Now()
		if err := execAll(ctx, sys.conn, indexes...); err != nil {
			return fmt.Errorf("%s: %w", sys.name, err)
		}
		logf("  %s: %d documents in %s, gin indexes in %s", sys.name, len(rows), loaded.Round(time.Millisecond), time.Since(start).Round(time.Millisecond))
	}
	if cfg.zproxyVacuum {
		if err := execAll(ctx, zconn, "VACUUM ANALYZE docs"); err != nil {
			return fmt.Errorf("zproxy: %w", err)
		}
	}
	return execAll(ctx, pconn, "VACUUM ANALYZE docs")
}

// docsClasses are the document queries; factSQL counts the documents each
// returns, so items read per row is per document returned.
func docsClasses(cfg config) []queryClass {
	brands, extras, tags := docsDomain(cfg.docs)
	class := func(name, where string, gen func(r *rand.Rand) []any) queryClass {
		return queryClass{
			name:    name,
			zproxy:  "SELECT id, attrs ->> 'color' FROM docs WHERE " + where,
			pg:      "SELECT id, attrs ->> 'color' FROM docs WHERE " + where,
			factSQL: "SELECT count(*) FROM docs WHERE " + where,
			gen:     gen,
		}
	}
	cs := []queryClass{
		class("jsonb @> one key", "attrs @> $1::jsonb", func(r *rand.Rand) []any {
			return []any{fmt.Sprintf(`{"brand": "b%d"}`, r.IntN(brands))}
		}),
		class("jsonb @> nested", "attrs @> $1::jsonb", func(r *rand.Rand) []any {
			return []any{fmt.Sprintf(`{"dims": {"w": %d}, "color": "c%d"}`, r.IntN(50), r.IntN(docColors))}
		}),
		class("jsonb ? key", "attrs ? $1", func(r *rand.Rand) []any {
			return []any{fmt.Sprintf("x%d", r.IntN(extras))}
		}),
		class("array @> tag", "tags @> $1::text[]", func(r *rand.Rand) []any {
			return []any{fmt.Sprintf("{t%d}", r.IntN(tags))}
		}),
		class("array && 2 tags", "tags && $1::text[]", func(r *rand.Rand) []any {
			return []any{fmt.Sprintf("{t%d,t%d}", r.IntN(tags), r.IntN(tags))}
		}),
		class("fulltext @@ word", "to_tsvector('english', body) @@ to_tsquery('english', $1)", func(r *rand.Rand) []any {
			return []any{docWord(r.IntN(docsWords(cfg.docs)))}
		}),
		class("fulltext @@ a | b", "to_tsvector('english', body) @@ to_tsquery('english', $1)", func(r *rand.Rand) []any {
			words := docsWords(cfg.docs)
			return []any{docWord(r.IntN(words)) + " | " + docWord(r.IntN(words))}
		}),
	}
	for i := range cs {
		cs[i].stream = uint64(i + 1)
	}
	return cs
}

// reportDocs prints the docs workload's results.
func reportDocs(w io.Writer, cfg config, ds dataset, pgVersion string, loads []loadResult, results []classResult, loadAvg []string) {
	brands, extras, tags := docsDomain(cfg.docs)
	fmt.Fprintf(w, "\n## Documents: gin indexes, zproxy (embedded Pebble) vs PostgreSQL %s\n\n", pgVersion)
	fmt.Fprintf(w, "docs: %d rows (id, attrs jsonb with a brand of %d, a color of %d, a size, dims {w, h}, one key of %d; tags text[] of %d tags from %d; body text of %d words from %d, seed %d).\n",
		cfg.docs, brands, docColors, extras, docTagsPer, tags, docWords, docsWords(cfg.docs), cfg.seed)
	fmt.Fprintf(w, "Both systems: gin (attrs), gin (attrs jsonb_path_ops), gin (tags), gin (to_tsvector('english', body)); zproxy shards = %d; PostgreSQL with default settings; VACUUM ANALYZE on both (zproxy: -zproxy-vacuum). Fact rows are the documents a query returns. %d rounds of %d timed queries per class after %d warm-up, %d CPUs.\n", cfg.shards, cfg.rounds, cfg.iterations, cfg.warmup, runtime.NumCPU())
	fmt.Fprintf(w, "Machine load average (1/5/15 min) before loading: %s; after the queries: %s.\n\n", loadAvg[0], loadAvg[len(loadAvg)-1])
	reportLoads(w, cfg, ds, loads)
	reportFactClasses(w, cfg, results)
}
