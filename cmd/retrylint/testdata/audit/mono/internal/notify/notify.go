// Package notify is the notification service: an HTTP service on a
// ServeMux, which reads the user's preferences from the database.
package notify

import (
	"net/http"
	"time"

	"example.com/mono/internal/kv"
)

// Server handles notifications.
type Server struct{ db *kv.Client }

// Routes registers the service's handlers.
func Routes(mux *http.ServeMux, db *kv.Client) {
	s := &Server{db: db}
	mux.HandleFunc("POST /v1/notify", s.Notify)
	mux.HandleFunc("GET /healthz", s.Health)
}

// Notify reads the preferences, retrying twice: each GET can be replayed
// once by net/http's Transport.
func (s *Server) Notify(w http.ResponseWriter, r *http.Request) {
	var err error
	for i := 0; i < 2; i++ {
		if _, err = s.db.Get(r.Context(), "prefs"); err == nil {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	http.Error(w, err.Error(), http.StatusBadGateway)
}

// Health answers the health check.
func (s *Server) Health(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusOK) }
