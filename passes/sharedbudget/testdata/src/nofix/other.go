package nofix

import "context"

func (s *Service) chargeSplit(ctx context.Context) error {
	for {
		if err := s.payments.Charge(ctx); err == nil || !split.TryRetry() {
			return err
		}
	}
}
