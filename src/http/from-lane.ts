/** Marks a yoga call made by a lane, whose request line the lane writes itself. */
export const fromLane = 'fromLane';
