package main

import (
	"net/http"
	"net/http/pprof"
)

// registerPprof serves net/http/pprof's handlers under /debug/pprof/ on mux,
// the metrics listener's own mux (zproxy never serves http.DefaultServeMux,
// where the package also registers them), so they exist only with --pprof.
func registerPprof(mux *http.ServeMux) {
	mux.HandleFunc("/debug/pprof/", pprof.Index) // heap, goroutine, allocs, block, mutex, threadcreate by name
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
}
