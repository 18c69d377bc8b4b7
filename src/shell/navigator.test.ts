import { describe, expect, it, vi } from 'vitest';
import { appNavigator, type NavigableRouter } from './navigator';

function router(pathname: string) {
  const navigate = vi.fn(async () => undefined);
  const r: NavigableRouter = { navigate, latestLocation: { pathname } };
  return { r, navigate };
}

describe('the Navigation service', () => {
  it('goes where asked, with search and replace', () => {
    const { r, navigate } = router('/history');
    appNavigator(r).navigate('/message', { search: { to: '+13105550177' }, replace: true });
    expect(navigate).toHaveBeenCalledWith({ to: '/message', search: { to: '+13105550177' }, replace: true });
  });

  it("drops a screen's own change once the user has gone to another screen, even one still loading", () => {
    // The user pressed "g x" while the history list was loading; then the list came in.
    const { r, navigate } = router('/message');
    appNavigator(r).navigate('/history', { search: { id: 1008 }, replace: true, ifStillOn: '/history' });
    expect(navigate).not.toHaveBeenCalled();
  });

  it("applies a screen's own change while the user is still on it", () => {
    const { r, navigate } = router('/history');
    appNavigator(r).navigate('/history', { search: { id: 1008 }, replace: true, ifStillOn: '/history' });
    expect(navigate).toHaveBeenCalledOnce();
  });
});
