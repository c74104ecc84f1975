import { Icon } from '../../../components/Icon.tsx';

/** The icons of the signed-in layout: sidebar items, header, drawer and profile menu. */
export const icons = {
  email: (
    <Icon className="size-5">
      <rect x="3" y="5" width="18" height="14" rx="2" />
      <path d="m3.5 6.5 8.5 6.5 8.5-6.5" />
    </Icon>
  ),
  tel: (
    <Icon className="size-5">
      <path d="M5 4h3.5l1.5 4.5-2 1.5a11 11 0 0 0 6 6l1.5-2 4.5 1.5V19a2 2 0 0 1-2 2A16 16 0 0 1 3 6a2 2 0 0 1 2-2z" />
    </Icon>
  ),
  leak: (
    <Icon className="size-5">
      <ellipse cx="12" cy="5.5" rx="7.5" ry="2.5" />
      <path d="M4.5 5.5v6c0 1.4 3.4 2.5 7.5 2.5s7.5-1.1 7.5-2.5v-6M4.5 11.5v6c0 1.4 3.4 2.5 7.5 2.5 1 0 1.9-.1 2.8-.2" />
      <circle cx="18" cy="18" r="2.5" />
      <path d="m20 20 1.5 1.5" />
    </Icon>
  ),
  corporate: (
    <Icon className="size-5">
      <path d="M4 21V5a1 1 0 0 1 1-1h9a1 1 0 0 1 1 1v16M15 9h4a1 1 0 0 1 1 1v11M2.5 21h19" />
      <path d="M8 8h3M8 12h3M8 16h3" />
    </Icon>
  ),
  verified: (
    <Icon className="size-5">
      <rect x="3" y="4.5" width="18" height="15" rx="2" />
      <circle cx="9" cy="11" r="2.25" />
      <path d="M5.5 16.5c.5-1.7 1.8-2.6 3.5-2.6s3 .9 3.5 2.6M15 10h3M15 13.5h3" />
    </Icon>
  ),
  cases: (
    <Icon className="size-5">
      <path d="M3 7a2 2 0 0 1 2-2h4l2 2h8a2 2 0 0 1 2 2v9a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2z" />
      <circle cx="11.5" cy="13.5" r="2.5" />
      <path d="m13.5 15.5 2.5 2.5" />
    </Icon>
  ),
  bulk: (
    <Icon className="size-5">
      <path d="M8 6h12M8 12h12M8 18h12" />
      <path d="M3.5 6h.01M3.5 12h.01M3.5 18h.01" strokeWidth="2.5" />
    </Icon>
  ),
  watchlist: (
    <Icon className="size-5">
      <path d="M2.5 12S6 5.5 12 5.5 21.5 12 21.5 12 18 18.5 12 18.5 2.5 12 2.5 12z" />
      <circle cx="12" cy="12" r="3" />
    </Icon>
  ),
  logout: (
    <Icon className="size-5">
      <path d="M9 21H5a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2h4M16 17l5-5-5-5M21 12H9" />
    </Icon>
  ),
  help: (
    <Icon className="size-5">
      <circle cx="12" cy="12" r="9" />
      <path d="M9.5 9.3a2.6 2.6 0 0 1 5 .9c0 1.7-2.5 2.3-2.5 3.8M12 17.2v.1" />
    </Icon>
  ),
  menu: (
    <Icon className="size-5">
      <path d="M4 7h16M4 12h16M4 17h16" />
    </Icon>
  ),
  close: (
    <Icon className="size-5">
      <path d="M6 6l12 12M18 6 6 18" />
    </Icon>
  ),
  coins: (
    <Icon className="size-4">
      <ellipse cx="9" cy="7" rx="6" ry="3" />
      <path d="M3 7v5c0 1.7 2.7 3 6 3s6-1.3 6-3V7M9 15v2c0 1.7 2.7 3 6 3s6-1.3 6-3v-5c0-1.6-2.4-2.9-5.5-3" />
    </Icon>
  ),
  chevron: (
    <Icon className="size-4">
      <path d="m6 9 6 6 6-6" />
    </Icon>
  ),
  security: (
    <Icon className="size-5">
      <path d="M12 3 4.5 6v5.5c0 4.4 3.2 8.3 7.5 9.5 4.3-1.2 7.5-5.1 7.5-9.5V6z" />
      <rect x="9" y="10.5" width="6" height="5" rx="1" />
      <path d="M10.5 10.5V9a1.5 1.5 0 0 1 3 0v1.5" />
    </Icon>
  ),
  apiKey: (
    <Icon className="size-5">
      <circle cx="8" cy="15" r="4" />
      <path d="m11 12 8.5-8.5M16 7l2.5 2.5M14 9l2 2" />
    </Icon>
  ),
  history: (
    <Icon className="size-5">
      <path d="M3.5 12a8.5 8.5 0 1 0 2.5-6L3.5 8.5M3.5 4v4.5H8" />
      <path d="M12 7.5V12l3 2" />
    </Icon>
  ),
  reviews: (
    <Icon className="size-5">
      <path d="M9 4.5H6.5a2 2 0 0 0-2 2V19a2 2 0 0 0 2 2h11a2 2 0 0 0 2-2V6.5a2 2 0 0 0-2-2H15" />
      <rect x="9" y="3" width="6" height="3" rx="1" />
      <path d="m8.5 13 2.5 2.5 4.5-5" />
    </Icon>
  ),
  approvals: (
    <Icon className="size-5">
      <path d="M12 3 4.5 6v5.5c0 4.6 3.2 8.4 7.5 9.5 4.3-1.1 7.5-4.9 7.5-9.5V6L12 3z" />
      <path d="M12 8v4l2.5 1.5" />
    </Icon>
  ),
  units: (
    <Icon className="size-5">
      <rect x="9" y="3" width="6" height="5" rx="1" />
      <rect x="3" y="16" width="6" height="5" rx="1" />
      <rect x="15" y="16" width="6" height="5" rx="1" />
      <path d="M12 8v4M6 16v-4h12v4" />
    </Icon>
  ),
  admin: (
    <Icon className="size-5">
      <path d="M12 3 4.5 6v5.5c0 4.5 3.2 8.3 7.5 9.5 4.3-1.2 7.5-5 7.5-9.5V6z" />
      <path d="m9 12 2 2 4-4" />
    </Icon>
  ),
};
