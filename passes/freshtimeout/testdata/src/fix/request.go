package fix

import (
	"context"
	"net/http"
	"time"
)

func handle(w http.ResponseWriter, r *http.Request) {
	c, cancel := context.WithTimeout(context.Background(), time.Second) // want `inherited from r.Context\(\)$`
	defer cancel()
	use(c)
}
