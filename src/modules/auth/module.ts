import { defineModule } from '../../module.js';
import { routes } from './schema.js';

export default defineModule({
  name: 'auth',
  routes,
  tags: [
    { name: 'Auth', description: 'Sign-up, sign-in and the signed-in account.', segments: ['auth'] },
  ],
});
