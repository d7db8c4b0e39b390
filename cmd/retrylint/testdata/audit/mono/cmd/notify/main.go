// Command notify serves the notification service.
package main

import (
	"log"
	"net/http"
	"os"

	"example.com/mono/internal/kv"
	"example.com/mono/internal/notify"
)

func main() {
	mux := http.NewServeMux()
	notify.Routes(mux, kv.New(os.Getenv("DB_URL")))
	log.Fatal(http.ListenAndServe(":8080", mux))
}
