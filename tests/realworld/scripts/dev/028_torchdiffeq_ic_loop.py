import numpy as np
import time
import torch
from torchdiffeq import odeint

ode_fn = lambda t, x: torch.sin(t) + 3. * torch.cos(2. * t) - x

t_begin=0.
t_end=10.
t_nsamples=100
t_space = np.linspace(t_begin, t_end, t_nsamples)
t_space_gpu = torch.tensor(t_space).to("cuda")
ntimes = 100
x_inits_gpu = torch.tensor(np.random.random((ntimes,1))).to("cuda")
x_num_sol = torch.zeros( (ntimes, t_nsamples, 1) ).to("cuda")

tic = time.perf_counter()
for i in range(ntimes):
    x_num_sol[i] = odeint(ode_fn, x_inits_gpu[i], t_space_gpu).to("cuda", non_blocking=True)
toc = time.perf_counter()

print(f"Evaluated {ntimes} IC's in {toc - tic:0.4f} seconds")
