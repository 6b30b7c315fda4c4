import { defineModule } from '../../module.js';
import { routes, aliases } from './schema.js';
import { WaitingOffers } from './waiting-offers.js';

export default defineModule({
  name: 'routing',
  routes,
  aliases,
  listeners: (services) => [new WaitingOffers(services.assignments)],
});
