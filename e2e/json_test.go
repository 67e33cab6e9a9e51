package e2e

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"github.com/jackc/pgx/v5"
)

// TestJSONRoundTrip stores json and jsonb through pgx in every exec mode
// (parameters in pgx's formats: text for json, binary for jsonb once the
// statement is described), reads them back with text and with binary
// results, and reads the json that zproxy's functions and aggregates
// build. json keeps its text verbatim; jsonb its normal form.
func TestJSONRoundTrip(t *testing.T) {
	t.Parallel()
	tg := newTarget(t)
	setup := tg.Connect(t, pgx.QueryExecModeCacheStatement)
	tg.CreateTable(t, setup, `CREATE TABLE json_rt (id INTEGER NOT NULL, j JSON, b JSONB, PRIMARY KEY (id)) WITH (shards = 2)`)

	docs := []string{`{"b": [1, 2.50, "é"], "a": null}`, `[]`, `"x\ty"`, `{"a":1,  "a":2}`, `12345678901234567890.5`}
	id := 0
	for _, mode := range execModes {
		conn := tg.Connect(t, mode)
		for _, d := range docs {
			id++
			if _, err := conn.Exec(testCtx(t), "INSERT INTO json_rt VALUES ($1, $2, $3)", id, d, d); err != nil {
				t.Fatalf("%v: insert %s: %v", mode, d, err)
			}
		}
		id++
		if _, err := conn.Exec(testCtx(t), "INSERT INTO json_rt VALUES ($1, $2, $3)", id, nil, nil); err != nil {
			t.Fatalf("%v: insert NULLs: %v", mode, err)
		}
	}

	reads := []struct {
		name string
		mode pgx.QueryExecMode
		opts []any
	}{
		{"text", pgx.QueryExecModeCacheStatement, []any{pgx.QueryResultFormats{pgx.TextFormatCode}}},
		{"binary", pgx.QueryExecModeCacheStatement, []any{pgx.QueryResultFormats{pgx.BinaryFormatCode}}},
		{"simple", pgx.QueryExecModeSimpleProtocol, nil},
	}
	for _, rd := range reads {
		t.Run(rd.name, func(t *testing.T) {
			conn := tg.Connect(t, rd.mode)
			rows, err := conn.Query(testCtx(t), "SELECT id, j::text, j, b FROM json_rt ORDER BY id", rd.opts...)
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for rows.Next() {
				var rid int
				var jText *string
				var j, b any
				if err := rows.Scan(&rid, &jText, &j, &b); err != nil {
					t.Fatalf("scan: %v", err)
				}
				k := n % (len(docs) + 1)
				n++
				if k == len(docs) {
					if jText != nil || j != nil || b != nil {
						t.Errorf("row %d: NULLs read as %v %v %v", rid, jText, j, b)
					}
					continue
				}
				if jText == nil || *jText != docs[k] {
					t.Errorf("row %d: json text %v, want %q verbatim", rid, jText, docs[k])
				}
				var want any
				_ = json.Unmarshal([]byte(docs[k]), &want)
				if !reflect.DeepEqual(j, want) || !reflect.DeepEqual(b, want) {
					t.Errorf("row %d: json %#v, jsonb %#v, want %#v", rid, j, b, want)
				}
			}
			if err := rows.Err(); err != nil {
				t.Fatal(err)
			}
			if n != len(execModes)*(len(docs)+1) {
				t.Errorf("read %d rows", n)
			}

			// What the functions and aggregates build, decoded by pgx.
			var obj, agg map[string]any
			var arr []any
			var field string
			err = conn.QueryRow(testCtx(t), `SELECT jsonb_build_object('k', 1, 'l', jsonb_build_array(true, NULL)),
				jsonb_agg(id ORDER BY id DESC), json_object_agg(id, b -> 'a'), max(b -> 'b' ->> 2)
				FROM json_rt WHERE id IN (1, 2)`, rd.opts...).Scan(&obj, &arr, &agg, &field)
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(obj) != "map[k:1 l:[true <nil>]]" || fmt.Sprint(arr) != "[2 1]" ||
				fmt.Sprint(agg) != "map[1:<nil> 2:<nil>]" || field != "é" {
				t.Errorf("functions: %v %v %v %q", obj, arr, agg, field)
			}
		})
	}
}
