// Package db is the database service: a key-value store over HTTP.
package db

import (
	"io"
	"net/http"
	"sync"
)

// Store holds the values in memory.
type Store struct {
	mu   sync.Mutex
	data map[string]string
}

// NewStore returns an empty store.
func NewStore() *Store { return &Store{data: map[string]string{}} }

// Routes registers the store's handlers on mux (Go 1.22 patterns).
func (s *Store) Routes(mux *http.ServeMux) {
	mux.HandleFunc("PUT /kv/{key}", s.Put)
	mux.HandleFunc("GET /kv/{key}", s.Get)
}

// Put stores the request's body at its key.
func (s *Store) Put(w http.ResponseWriter, r *http.Request) {
	b, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	s.data[r.PathValue("key")] = string(b)
	s.mu.Unlock()
	w.WriteHeader(http.StatusNoContent)
}

// Get writes the value at the request's key.
func (s *Store) Get(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	v, ok := s.data[r.PathValue("key")]
	s.mu.Unlock()
	if !ok {
		http.NotFound(w, r)
		return
	}
	io.WriteString(w, v)
}
