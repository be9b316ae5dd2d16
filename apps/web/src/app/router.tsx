import { lazy, Suspense, type ComponentType, type ReactElement, type ReactNode } from 'react';
import { createRoutesFromChildren, matchRoutes, Outlet, Route, Routes } from 'react-router';
import { ComingSoon } from '../components/ui/coming-soon';
import { PageLoading } from '../components/ui/page-loading';
import { HomeRedirect, RequireAdmin, RequireStaff, RequireUser, RequireVisitor } from './guards';
import { Layout } from './layout';
import { logout } from './logout';
// A visitor's first load: the shell and the sign-in screen, without react-query.
import { LoginScreen } from '../features/auth/components/login-screen';
import { i18n, useTranslation, type Texts } from '../lib/i18n';

/** React.lazy whose code can be asked for before the screen renders (`preloadScreen`), once either way. */
function preloadable<Props extends object>(load: () => Promise<{ default: ComponentType<Props> }>) {
  let loading: ReturnType<typeof load> | undefined;
  const preload = () => (loading ??= load());
  return Object.assign(lazy(preload), { preload });
}

/**
 * A screen whose code loads when it is first shown (behind its guard; the layout shows PageLoading meanwhile),
 * named export `name` of the module, given the app's query client: react-query loads with the first screen too.
 * Its texts come with its code: every part of `common` unless it names the parts it shows (locales/parts.ts).
 */
function lazyScreen<Name extends string, Props extends object>(
  load: () => Promise<Record<Name, ComponentType<Props>>>,
  name: Name,
  texts: Texts[] = ['common'],
) {
  return preloadable(async () => {
    const [screens, { QueryProvider }] = await Promise.all([
      load(),
      import('../lib/query-client'),
      i18n.loadNamespaces(texts),
    ]);
    const Screen: ComponentType<Props> = screens[name];
    return {
      default: (props: Props) => (
        <QueryProvider>
          <Screen {...props} />
        </QueryProvider>
      ),
    };
  });
}

// Registering and the password reset screens need no react-query: plain lazy screens.
const RegisterScreen = preloadable(async () => ({
  default: (await import('../features/auth/components/register-screen')).RegisterScreen,
}));
const ForgotPasswordScreen = preloadable(async () => ({
  default: (await import('../features/auth/components/forgot-password-screen')).ForgotPasswordScreen,
}));
const ResetPasswordScreen = preloadable(async () => ({
  default: (await import('../features/auth/components/reset-password-screen')).ResetPasswordScreen,
}));
const VerifyEmailScreen = preloadable(async () => ({
  default: (await import('../features/auth/components/verify-email-screen')).VerifyEmailScreen,
}));
const GuestOrderScreen = lazyScreen(
  () => import('../features/tickets/components/guest-order-screen'),
  'GuestOrderScreen',
);
// The film screens show the films' attributes, whose texts are in the seat map's part.
const MoviesScreen = lazyScreen(
  () => import('../features/catalogue/components/movies-screen'),
  'MoviesScreen',
  ['catalogue', 'seatMap'],
);
// The public schedule: visitors too (DESIGN §6.6).
const ScheduleScreen = lazyScreen(
  () => import('../features/catalogue/components/schedule-screen'),
  'ScheduleScreen',
  ['catalogue', 'seatMap'],
);
const MovieShowtimesScreen = lazyScreen(
  () => import('../features/catalogue/components/movie-showtimes-screen'),
  'MovieShowtimesScreen',
  ['catalogue', 'seatMap'],
);
const SeatMapScreen = lazyScreen(
  () => import('../features/seat-map/components/seat-map-screen'),
  'SeatMapScreen',
  // The rest of `common` (basket, hold, waiting list, advice) comes with the parts that load once seats are chosen.
  ['seatMap'],
);
const CheckoutSuccessScreen = lazyScreen(
  () => import('../features/checkout/components/checkout-success-screen'),
  'CheckoutSuccessScreen',
);
const CheckoutCancelScreen = lazyScreen(
  () => import('../features/checkout/components/checkout-cancel-screen'),
  'CheckoutCancelScreen',
);
const MenuScreen = lazyScreen(() => import('../features/concessions/components/menu-screen'), 'MenuScreen');
const GiftCardsScreen = lazyScreen(
  () => import('../features/gift-cards/components/gift-cards-screen'),
  'GiftCardsScreen',
);
const MyTicketsScreen = lazyScreen(
  () => import('../features/tickets/components/my-tickets-screen'),
  'MyTicketsScreen',
);
const ProfileScreen = lazyScreen(
  () => import('../features/profile/components/profile-screen'),
  'ProfileScreen',
);
// Staff screens bring the staff texts along, fetched together with their code.
const AdminDashboard = lazyScreen(
  () => import('../features/admin-catalogue/components/admin-dashboard'),
  'AdminDashboard',
  ['common', 'admin'],
);
const ManageShowtimesScreen = lazyScreen(
  () => import('../features/admin-catalogue/components/manage-showtimes-screen'),
  'ManageShowtimesScreen',
  ['common', 'admin'],
);
const ScheduleShowtimesScreen = lazyScreen(
  () => import('../features/admin-catalogue/components/schedule-showtimes-screen'),
  'ScheduleShowtimesScreen',
  ['common', 'admin'],
);
const HallWeekScreen = lazyScreen(
  () => import('../features/admin-catalogue/components/hall-week-screen'),
  'HallWeekScreen',
  ['common', 'admin'],
);
const AuditScreen = lazyScreen(
  () => import('../features/admin-audit/components/audit-screen'),
  'AuditScreen',
  ['common', 'admin'],
);
const ShowtimeWaitlistScreen = lazyScreen(
  () => import('../features/admin-bookings/components/showtime-waitlist-screen'),
  'ShowtimeWaitlistScreen',
);
const BookedSeatsScreen = lazyScreen(
  () => import('../features/admin-bookings/components/booked-seats-screen'),
  'BookedSeatsScreen',
  ['common', 'admin'],
);
const ShowtimeQrCodesScreen = lazyScreen(
  () => import('../features/admin-bookings/components/showtime-qr-codes-screen'),
  'ShowtimeQrCodesScreen',
  ['common', 'admin'],
);
const HallsScreen = lazyScreen(
  () => import('../features/admin-halls/components/halls-screen'),
  'HallsScreen',
  ['common', 'admin'],
);
const HallEditorScreen = lazyScreen(
  () => import('../features/admin-halls/components/hall-editor-screen'),
  'HallEditorScreen',
  ['common', 'admin'],
);
// The sales reports (and their chart library) load only on /admin/reports.
const ReportsScreen = lazyScreen(
  () => import('../features/admin-reports/components/reports-screen'),
  'ReportsScreen',
  ['common', 'admin'],
);
const FilmHireScreen = lazyScreen(
  () => import('../features/admin-film-hire/components/film-hire-screen'),
  'FilmHireScreen',
  ['common', 'admin'],
);
const DistributorsScreen = lazyScreen(
  () => import('../features/admin-film-hire/components/distributors-screen'),
  'DistributorsScreen',
  ['common', 'admin'],
);
const TaxesScreen = lazyScreen(
  () => import('../features/admin-taxes/components/taxes-screen'),
  'TaxesScreen',
  ['common', 'admin'],
);
const CounterSaleScreen = lazyScreen(
  () => import('../features/box-office/components/counter-sale-screen'),
  'CounterSaleScreen',
  ['common', 'admin'],
);
const OrdersScreen = lazyScreen(
  () => import('../features/box-office/components/orders-screen'),
  'OrdersScreen',
  ['common', 'admin'],
);
const OrderScreen = lazyScreen(
  () => import('../features/box-office/components/order-screen'),
  'OrderScreen',
  ['common', 'admin'],
);
const PricingScreen = lazyScreen(
  () => import('../features/admin-pricing/components/pricing-screen'),
  'PricingScreen',
  ['common', 'admin'],
);
const PromoCodesScreen = lazyScreen(
  () => import('../features/admin-pricing/components/promo-codes-screen'),
  'PromoCodesScreen',
  ['common', 'admin'],
);
const ConcessionsScreen = lazyScreen(
  () => import('../features/admin-concessions/components/concessions-screen'),
  'ConcessionsScreen',
  ['common', 'admin'],
);
const KitchenScreen = lazyScreen(
  () => import('../features/kitchen/components/kitchen-screen'),
  'KitchenScreen',
  ['common', 'admin'],
);
const GiftCardsAdminScreen = lazyScreen(
  () => import('../features/admin-gift-cards/components/gift-cards-admin-screen'),
  'GiftCardsAdminScreen',
  ['common', 'admin'],
);
const UsersScreen = lazyScreen(
  () => import('../features/admin-users/components/users-screen'),
  'UsersScreen',
  ['common', 'admin'],
);
const OutboxScreen = lazyScreen(
  () => import('../features/admin-outbox/components/outbox-screen'),
  'OutboxScreen',
  ['common', 'admin'],
);
// The scanner (and its WebAssembly decoder) loads only on /admin/scan.
const ScannerPage = lazyScreen(() => import('../features/scanner/components/scanner-page'), 'ScannerPage', [
  'common',
  'admin',
]);

function NotFound() {
  const { t } = useTranslation('common');
  return <ComingSoon title={t('ui.notFound')} />;
}

// Each feature contributes its screens here, under the guard of who may see them; features never import one
// another. A screen that fails to render falls to the app's error boundary ('Something went wrong.').
const routes = (
  <Route element={<Layout />}>
    <Route path="/" element={<HomeRedirect />} />
    <Route element={guarded(RequireVisitor)}>
      <Route path="/login" element={<LoginScreen />} />
      <Route path="/register" element={<RegisterScreen />} />
      <Route path="/forgot-password" element={<ForgotPasswordScreen />} />
    </Route>
    {/* Whoever holds the emailed link, signed in or not: the reset signs every session out. */}
    <Route path="/reset-password" element={<ResetPasswordScreen />} />
    {/* The emailed links of verification and of a guest order: whoever holds them, signed in or not. */}
    <Route path="/verify-email" element={<VerifyEmailScreen />} />
    <Route path="/guest-order" element={<GuestOrderScreen />} />
    <Route element={guarded(RequireUser)}>
      <Route path="/movies" element={<MoviesScreen />} />
      <Route path="/movies/:id" element={<MovieShowtimesScreen />} />
      <Route path="/showtimes/:id/seats" element={<SeatMapScreen />} />
      <Route path="/tickets" element={<MyTicketsScreen />} />
      <Route path="/menu" element={<MenuScreen />} />
      <Route path="/gift-cards" element={<GiftCardsScreen />} />
      <Route path="/profile" element={<ProfileScreen onLogout={logout} />} />
    </Route>
    <Route element={guarded(RequireAdmin)}>
      <Route path="/admin" element={<AdminDashboard />} />
      <Route path="/admin/showtimes" element={<ManageShowtimesScreen />} />
      <Route path="/admin/schedule" element={<ScheduleShowtimesScreen />} />
      <Route path="/admin/week" element={<HallWeekScreen />} />
      <Route path="/admin/audit" element={<AuditScreen />} />
      <Route path="/admin/showtimes/:id/tickets" element={<ShowtimeQrCodesScreen />} />
      <Route path="/admin/halls" element={<HallsScreen />} />
      <Route path="/admin/halls/new" element={<HallEditorScreen />} />
      <Route path="/admin/halls/:id" element={<HallEditorScreen />} />
      <Route path="/admin/reports" element={<ReportsScreen />} />
      <Route path="/admin/reports/film-hire" element={<FilmHireScreen />} />
      <Route path="/admin/distributors" element={<DistributorsScreen />} />
      <Route path="/admin/taxes" element={<TaxesScreen />} />
      <Route path="/admin/pricing" element={<PricingScreen />} />
      <Route path="/admin/promo-codes" element={<PromoCodesScreen />} />
      <Route path="/admin/concessions" element={<ConcessionsScreen />} />
      <Route path="/admin/users" element={<UsersScreen />} />
      <Route path="/admin/orders" element={<OrdersScreen />} />
      <Route path="/admin/orders/:ref" element={<OrderScreen />} />
    </Route>
    {/* The door and counter sales: staff and admins (DESIGN §6.4, §6.5). */}
    <Route element={guarded(RequireStaff)}>
      <Route path="/admin/showtimes/:id/booked" element={<BookedSeatsScreen />} />
      <Route path="/admin/showtimes/:id/waitlist" element={<ShowtimeWaitlistScreen />} />
      <Route path="/admin/box-office" element={<CounterSaleScreen />} />
      <Route path="/admin/kitchen" element={<KitchenScreen />} />
      {/* Staff find a card and read its ledger; voiding and the liability are the admins' (the server checks). */}
      <Route path="/admin/gift-cards" element={<GiftCardsAdminScreen />} />
      <Route path="/admin/outbox" element={<OutboxScreen />} />
      <Route
        path="/admin/scan"
        element={
          <Suspense fallback={<PageLoading what="scanner" />}>
            <ScannerPage />
          </Suspense>
        }
      />
    </Route>
    <Route path="/schedule" element={<ScheduleScreen />} />
    <Route path="/checkout/success" element={<CheckoutSuccessScreen />} />
    <Route path="/checkout/cancel" element={<CheckoutCancelScreen />} />
    <Route path="*" element={<NotFound />} />
  </Route>
);

export function AppRoutes() {
  return <Routes>{routes}</Routes>;
}

/**
 * Starts loading the code (and texts) of the screen at `pathname`, so that a first load fetches it together with
 * the language's texts rather than after them (the first render waits for the texts).
 */
export function preloadScreen(pathname: string) {
  for (const { route } of matchRoutes(createRoutesFromChildren(routes), pathname) ?? []) {
    const screen = (route.element as ReactElement | undefined)?.type as
      { preload?: () => unknown } | undefined;
    void screen?.preload?.();
  }
}

/** A guard around whichever of its routes matched. */
function guarded(Guard: ComponentType<{ children: ReactNode }>) {
  return (
    <Guard>
      <Outlet />
    </Guard>
  );
}
