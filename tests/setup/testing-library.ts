import { configure } from '@testing-library/react';

// findBy*/waitFor wait for a condition, 1 s by default. On this 2-core machine under a full suite
// (load average above 15 measured) a screen's first render alone can take longer, and the wait ran
// out before the condition could hold ("Unable to find role=grid" in HistoryScreen.test). A longer
// bound changes nothing when the condition holds, and still fails a test whose condition never does.
configure({ asyncUtilTimeout: 5000 });
