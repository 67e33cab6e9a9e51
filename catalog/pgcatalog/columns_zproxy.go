package pgcatalog

// The columns of the catalog relations zproxy adds to PostgreSQL's (the
// tuning relations, tuning.go), in columns_gen.go's form; gen/rows.go
// reads them too. pg_stat_statements keeps the columns of PostgreSQL 15's
// pg_stat_statements 1.10, in order, so scripts and dashboards written for
// it work; zproxy's own columns follow them.
var zproxyRelationColumns = map[string]string{
	"pg_catalog.pg_stat_statements":          "userid oid, dbid oid, toplevel boolean, queryid bigint, query text, plans bigint, total_plan_time double precision, min_plan_time double precision, max_plan_time double precision, mean_plan_time double precision, stddev_plan_time double precision, calls bigint, total_exec_time double precision, min_exec_time double precision, max_exec_time double precision, mean_exec_time double precision, stddev_exec_time double precision, rows bigint, shared_blks_hit bigint, shared_blks_read bigint, shared_blks_dirtied bigint, shared_blks_written bigint, local_blks_hit bigint, local_blks_read bigint, local_blks_dirtied bigint, local_blks_written bigint, temp_blks_read bigint, temp_blks_written bigint, blk_read_time double precision, blk_write_time double precision, temp_blk_read_time double precision, temp_blk_write_time double precision, wal_records bigint, wal_fpi bigint, wal_bytes numeric, jit_functions bigint, jit_generation_time double precision, jit_inlining_count bigint, jit_inlining_time double precision, jit_optimization_count bigint, jit_optimization_time double precision, jit_emission_count bigint, jit_emission_time double precision, items_read bigint, store_requests bigint, dynamodb_capacity_units double precision, access_path text, full_scans bigint, plan json",
	"pg_catalog.pg_stat_statements_info":     "dealloc bigint, stats_reset timestamp with time zone",
	"pg_catalog.zproxy_index_advice":         "table_name name, kind text, recommendation text, statements bigint[], calls bigint, items_before double precision, items_after double precision, requests_before double precision, requests_after double precision, write_items_per_row double precision, rows_written bigint, reason text",
	"pg_catalog.zproxy_hypothetical_indexes": "indexrelid oid, index_name text, schema_name name, table_name name, am_name name, definition text",
	"pg_catalog.zproxy_proxies":              "slot integer, proxy_id text, address text, started timestamp with time zone, heartbeat timestamp with time zone, is_self boolean",
	// The postgis extension's table and views (ext_postgis.go), in public
	// with PostGIS 3.3's columns.
	"public.spatial_ref_sys":   "srid integer, auth_name character varying(256), auth_srid integer, srtext character varying(2048), proj4text character varying(2048)",
	"public.geometry_columns":  "f_table_catalog character varying(256), f_table_schema name, f_table_name name, f_geometry_column name, coord_dimension integer, srid integer, type character varying(30)",
	"public.geography_columns": "f_table_catalog name, f_table_schema name, f_table_name name, f_geography_column name, coord_dimension integer, srid integer, type text",
}

// zproxyRelationInfo are their OIDs.
var zproxyRelationInfo = map[string]relInfo{
	"pg_catalog.pg_stat_statements":          {12900, false},
	"pg_catalog.pg_stat_statements_info":     {12901, false},
	"pg_catalog.zproxy_index_advice":         {12910, false},
	"pg_catalog.zproxy_hypothetical_indexes": {12911, false},
	"pg_catalog.zproxy_proxies":              {12912, false},
	"public.spatial_ref_sys":                 {12977, true},
	"public.geometry_columns":                {12978, false},
	"public.geography_columns":               {12979, false},
}
