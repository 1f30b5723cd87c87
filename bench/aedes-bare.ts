// The baseline broker: aedes acknowledging every publish at once, no auth, no storage.
import net from 'node:net';
import { Aedes } from 'aedes';

const aedes = await Aedes.createBroker();
const server = net.createServer(aedes.handle);
server.listen(0, '127.0.0.1', () =>
  console.log(`listening on mqtt://127.0.0.1:${(server.address() as net.AddressInfo).port}`),
);
