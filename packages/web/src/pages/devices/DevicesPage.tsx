import { Card } from 'antd';
import { useIsMobile } from '../../layout/viewport.ts';
import { usePageRoute } from '../../navigation/page-route.ts';
import { DeviceList } from './DeviceList.tsx';
import { KIND_OF_ROUTE } from './device-text.ts';

/**
 * /equipments, /evaluates, /gateways, /electric-meters, /water-meters, /paper-machines:
 * one page, the kind taken from the route it was opened for.
 */
export default function DevicesPage() {
  const route = usePageRoute();
  const mobile = useIsMobile();
  const kind = KIND_OF_ROUTE[route.name];
  if (!kind) throw new Error(`no device kind for route ${route.name}`);
  return (
    <Card styles={{ body: { padding: mobile ? 12 : 24 } }}>
      <DeviceList kind={kind} />
    </Card>
  );
}
