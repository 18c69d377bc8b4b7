import {
  createRootRoute,
  createRoute,
  createRouter,
  lazyRouteComponent,
  Outlet,
  redirect,
  type AnyRoute,
  type RouterHistory,
} from '@tanstack/react-router';
import { HomePage, type Kernel } from '../kernel';
import { WizardApi } from '../contracts';
import { AppFrame } from './AppFrame';
import { NotFoundPage, NotFoundScreen } from './NotFound';
import { logout } from './session';

declare module '@tanstack/react-router' {
  interface StaticDataRouteOption {
    titleKey?: string;
  }
}

function Root() {
  return <Outlet />;
}

/**
 * After login: the frame with every plugin's routes; unknown routes and failed transitions show 404.
 * `history`: the browser's unless given (tests give a memory history).
 */
export function buildAppRouter(kernel: Kernel, history?: RouterHistory) {
  const root = createRootRoute({ component: Root, notFoundComponent: NotFoundPage });
  const app = createRoute({
    getParentRoute: () => root,
    id: 'app',
    component: AppFrame,
    beforeLoad: async ({ location }) => {
      // The onboarding wizard, when a plugin offers it, must be finished first.
      const wizard = kernel.maybe(WizardApi);
      if (wizard && !location.pathname.startsWith('/configuration') && (await wizard.isRequired())) {
        throw redirect({ to: '/configuration' });
      }
    },
  });
  // The user's chosen home, else the route the kernel made sure at boot is the product's home.
  const homePage = kernel.maybe(HomePage);
  const index = createRoute({
    getParentRoute: () => app,
    path: '/',
    beforeLoad: () => {
      const home = homePage ? homePage.path() : kernel.homePath();
      if (home) throw redirect({ to: home });
    },
  });
  const loginRoute = createRoute({
    getParentRoute: () => root,
    path: '/login',
    beforeLoad: () => {
      throw redirect({ to: '/' });
    },
  });
  const logoutRoute = createRoute({
    getParentRoute: () => root,
    path: '/logout',
    beforeLoad: async () => {
      await logout();
      // A full load drops every plugin's in-memory state with the session. Why the user was sent
      // here (maintenance) goes on to the login page, which says it.
      const reason = new URLSearchParams(location.search).get('reason');
      location.assign(reason === 'maintenance' ? '/login?reason=maintenance' : '/login');
      await new Promise(() => undefined);
    },
  });
  const pluginRoutes: AnyRoute[] = kernel.routes.list().map(({ item: r }) =>
    createRoute({
      getParentRoute: () => app,
      path: r.path,
      staticData: { titleKey: r.titleKey },
      validateSearch: r.validateSearch,
      beforeLoad: r.redirect
        ? () => {
            throw redirect({ to: r.redirect!.to, search: r.redirect!.search as never });
          }
        : undefined,
      component: r.component ? lazyRouteComponent(r.component) : undefined,
    }) as unknown as AnyRoute,
  );
  const notFound = createRoute({ getParentRoute: () => app, path: '$', staticData: { titleKey: 'shell:notFound.title' }, component: NotFoundScreen });
  return createRouter({
    routeTree: root.addChildren([app.addChildren([index, ...pluginRoutes, notFound]), loginRoute, logoutRoute]),
    history,
    defaultErrorComponent: NotFoundScreen,
    defaultNotFoundComponent: NotFoundPage,
    defaultPreload: 'intent',
  });
}
