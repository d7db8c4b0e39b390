// Command db serves the key-value store.
package main

import (
	"log"
	"net/http"

	"example.com/mono/internal/db"
)

func main() {
	mux := http.NewServeMux()
	db.NewStore().Routes(mux)
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusOK)
	})
	log.Fatal(http.ListenAndServe(":8080", mux))
}
